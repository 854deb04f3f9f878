package dev.lychee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.Checks;
import dev.lychee.api.Turn;
import dev.lychee.core.testing.HashingEmbedder;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every entry point of the facade applies the one name rule of {@link Checks}. */
class NameValidationTest {
  private final Lychee lychee = Lychee.builder().embedder(new HashingEmbedder()).build();

  @AfterEach
  void close() {
    lychee.close();
  }

  @Test
  void invisibleOrControlNamesAreRejectedEverywhere() {
    List<Turn> turns = List.of(Turn.user("A", "hello there"));
    for (String bad : List.of("\u200B", "\u00A0", "a\u0000b", "n".repeat(Checks.MAX_NAME_LENGTH + 1))) {
      assertThatThrownBy(() -> lychee.append(bad, "s", turns)).as(bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> lychee.append("ns", bad, turns)).as(bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> lychee.flush("ns", bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> lychee.recall(bad, "what?")).as(bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> lychee.forget(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> lychee.forget("ns", bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> lychee.encodePending(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void theLongestValidNamesWork() {
    String ns = "n".repeat(Checks.MAX_NAME_LENGTH);
    String session = "s".repeat(Checks.MAX_NAME_LENGTH);
    lychee.append(ns, session, List.of(Turn.user("A", "I moved to Lisbon in May.")));
    lychee.flush(ns, session);
    assertThat(lychee.recall(ns, "Where did A move?").evidence()).isNotEmpty();
  }

  @Test
  void anOverlongQuestionIsRejectedBeforeAnyWork() {
    assertThatThrownBy(() -> lychee.recall("ns", "x".repeat(2_000_000)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("question is 2000000 chars long; the limit is 16384");
  }
}
