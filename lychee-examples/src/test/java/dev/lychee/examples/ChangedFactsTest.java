package dev.lychee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Question;
import dev.lychee.api.Turn;
import dev.lychee.core.Lychee;
import dev.lychee.embed.onnx.OnnxEmbeddingModule;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A fact that changed between two sessions, through the facade with the real embedder (BGE-small,
 * offline) and the offline components: the present question gets the latest value, the question
 * about the former value gets both. The conversation is written for this test.
 */
class ChangedFactsTest {

  @Test
  @Timeout(180)
  void theLatestValueAndTheFormerOneAreAnsweredFromAppendOnlyMemory() {
    try (Lychee memory = Lychee.create(new OnnxEmbeddingModule())) {
      memory.append("noor", "s1", LocalDateTime.parse("2024-01-12T19:00"), List.of(
          Turn.user("Noor", "I work at Kestrel Labs as a data analyst."),
          Turn.user("Ivo", "Nice. And the new flat?"),
          Turn.user("Noor", "It is small, and my rent is 980 euros a month."),
          Turn.user("Ivo", "That is fair for the centre.")));
      memory.flush("noor", "s1");
      memory.append("noor", "s2", LocalDateTime.parse("2024-08-03T10:30"), List.of(
          Turn.user("Ivo", "Long time! What is new?"),
          Turn.user("Noor", "I left my old job in June, I work at Tidewater Health now."),
          Turn.user("Ivo", "Congratulations! Still in the same flat?"),
          Turn.user("Noor", "Yes, but the landlord raised it, my rent is 1100 euros a month since July.")));
      memory.flush("noor", "s2");
      LocalDateTime asked = LocalDateTime.parse("2024-09-01T09:00");

      String work = memory.answer(new Question("noor", "Where does Noor work now?", 10, asked)).text();
      assertThat(work).contains("Tidewater").doesNotContain("Kestrel");
      String rent = memory.answer(new Question("noor", "How much is Noor's rent now?", 10, asked)).text();
      assertThat(rent).contains("1100").doesNotContain("980");
      String before = memory.answer(new Question("noor", "How much was Noor's rent before?", 10, asked)).text();
      assertThat(before).isEqualTo("1100 euros a month (before: 980 euros a month)");
      String job = memory.answer(new Question("noor", "Where did Noor work previously?", 10, asked)).text();
      assertThat(job).isEqualTo("Tidewater Health (before: Kestrel Labs)");
    }
  }
}
