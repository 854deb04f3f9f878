package dev.lychee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Evidence;
import dev.lychee.api.Recall;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's custom channel joins the built-in ones through Lychee.create. */
class CustomChannelTest {

  @Test
  @Timeout(120)
  void theCalendarChannelsEntryIsRecalledBesideStoredTurns() {
    try (Lychee memory = CustomChannelExample.memoryWithCalendar()) {
      memory.append("alice", "s1", List.of(Turn.user("Nadia", "I like painting sunsets.")));
      memory.flush("alice", "s1");
      Recall recall = memory.recall("alice", "When was the choir rehearsal meeting?");
      assertThat(recall.evidence()).extracting(Evidence::text).contains("Choir rehearsal meeting, 7 May 2023");
      Recall unrelated = memory.recall("alice", "What does Nadia paint?");
      assertThat(unrelated.evidence()).extracting(Evidence::text)
          .doesNotContain("Choir rehearsal meeting, 7 May 2023");
    }
  }
}
