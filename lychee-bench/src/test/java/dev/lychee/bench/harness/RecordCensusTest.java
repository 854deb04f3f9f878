package dev.lychee.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.CloseReason;
import dev.lychee.api.MemoryType;
import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.TurnRef;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordCensusTest {
  private static final LocalDateTime DAY = LocalDateTime.of(2023, 5, 8, 13, 0);

  private static Segment segment(String session, int first, String... lines) {
    List<RawTurn> turns = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      String speaker = lines[i].substring(0, lines[i].indexOf(':'));
      String text = lines[i].substring(lines[i].indexOf(':') + 1).strip();
      turns.add(new RawTurn("ns", new TurnRef(session, first + i), Role.USER, speaker, text, DAY));
    }
    return new Segment("ns", session, turns, turns.size(), 40, CloseReason.SESSION_FLUSH, Double.NaN, Double.NaN);
  }

  @Test
  void countsRecordsNodesAndSegmentsThatGaveNothing() {
    RecordCensus census = RecordCensus.offline();
    census.segment(segment("s1", 0,
        "Dana: I adopted a grey cat named Pixel from the shelter yesterday.",
        "Omar: That's wonderful, I love cats and I visit the shelter every weekend."));
    census.segment(segment("s1", 2, "Dana: Bye Omar!", "Omar: Take care, bye!"));
    census.endConversation();

    RecordCensus.Result r = census.result();
    assertThat(r.segments()).isEqualTo(2);
    assertThat(r.emptySegments()).isEqualTo(1);
    assertThat(r.emptyExamples()).singleElement().asString().contains("Bye Omar!");
    assertThat(r.records()).isPositive();
    assertThat(r.recordsPerType().get(MemoryType.EVENT)).isPositive(); // a dated one-off action
    assertThat(r.nodes()).isPositive();
    assertThat(r.samples()).hasSize(r.records());
  }
}
