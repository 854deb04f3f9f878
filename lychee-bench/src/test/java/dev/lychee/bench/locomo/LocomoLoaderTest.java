package dev.lychee.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocomoLoaderTest {
  static List<LocomoConversation> tiny() throws Exception {
    try (InputStream in = LocomoLoaderTest.class.getResourceAsStream("/locomo-tiny.json")) {
      return LocomoLoader.load(in);
    }
  }

  @Test
  void readsSessionsByTheirListsNotByDateKeys() throws Exception {
    LocomoConversation c = tiny().get(0);
    assertThat(c.sampleId()).isEqualTo("conv-t1");
    assertThat(c.sessions()).hasSize(2); // session_3_date_time has no session_3 list
    assertThat(c.sessions().get(0).date()).isEqualTo(LocalDateTime.of(2023, 5, 8, 13, 56));
    assertThat(c.sessions().get(1).date()).isEqualTo(LocalDateTime.of(2023, 6, 27, 10, 37));
    assertThat(c.turnCount()).isEqualTo(7);
  }

  @Test
  void rendersSpeakerPrefixAndPhotoCaption() throws Exception {
    LocomoSession s1 = tiny().get(0).sessions().get(0);
    assertThat(s1.turns().get(0).text()).isEqualTo("Alice: Hi Bob, long time no see! How is work going?");
    assertThat(s1.turns().get(1).text()).isEqualTo(
        "Alice: I adopted a dog last week, a small beagle called Pepper. [shares photo: a photo of a beagle puppy on a sofa]");
    assertThat(s1.turns().get(1).id()).isEqualTo(new DiaId(1, 2));
    assertThat(s1.turns().get(1).utterance()).startsWith("I adopted a dog");
  }

  @Test
  void keepsCategoriesOneToFourWithCleanedEvidenceAndCountsSkipped() throws Exception {
    LocomoConversation c = tiny().get(0);
    assertThat(c.questions()).extracting(LocomoQuestion::index).containsExactly(0, 1, 2, 3);
    assertThat(c.questions().get(1).gold()).containsExactly(new DiaId(2, 1), new DiaId(2, 3));
    assertThat(c.questions().get(2).gold()).containsExactly(new DiaId(1, 2), new DiaId(2, 4));
    assertThat(c.questions().get(3).gold()).containsExactly(new DiaId(2, 3));
    assertThat(c.questions().get(3).answer()).isEqualTo("2023"); // an int answer
    assertThat(c.skipped()).isEqualTo(2); // no valid id left, and an empty evidence list
    assertThat(tiny().get(1).questions()).hasSize(2);
    assertThat(tiny().get(1).sessions().get(1).date()).isEqualTo(LocalDateTime.of(2023, 9, 20, 15, 15));
  }

  @Test
  void parsesLocomoDates() {
    assertThat(LocomoDates.parse("12:09 am on 13 September, 2023")).isEqualTo(LocalDateTime.of(2023, 9, 13, 0, 9));
    assertThatThrownBy(() -> LocomoDates.parse("2023-09-13")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2023-09-13");
  }

  @Test
  void rejectsAFileThatIsNotAList() {
    InputStream in = new ByteArrayInputStream("{\"a\":1}".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> LocomoLoader.load(in)).isInstanceOf(java.io.IOException.class);
  }
}
