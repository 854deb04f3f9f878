package dev.lychee.core.answer;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.DateRange;
import dev.lychee.api.Evidence;
import dev.lychee.api.MemoryType;
import dev.lychee.api.Provenance;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TurnRef;
import dev.lychee.core.testing.Cands;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

class EvidenceFormatterTest {
  private final EvidenceFormatter f = new EvidenceFormatter();

  static Candidate record(String text, TemporalScope t) {
    return new Candidate("rec", CandidateKind.RECORD, "ns", text, "s1", List.of(TurnRef.of("s1", 3)), null, t,
        MemoryType.EVENT, null, List.of(), List.of(), .8, .8, Provenance.EMPTY);
  }

  @Test
  void twoBlocksWithDateAndMentionedLines() {
    Candidate rec = record("Dana went to the choir rehearsal on 7 May 2023.",
        new TemporalScope("2023-05-07", "", "", DateRange.day(LocalDate.of(2023, 5, 7)), false));
    Candidate turn = Cands.turn("s1", 3, "Dana: I went to the choir rehearsal yesterday.", .7);
    String out = f.format(List.of(new Evidence(1, .8, rec), new Evidence(2, .7, turn)));
    assertThat(out).isEqualTo("""
        Memory records:
        [1] Dana went to the choir rehearsal on 7 May 2023.
        Date: 2023-05-07

        Conversation excerpts:
        [2] Dana: I went to the choir rehearsal yesterday.
        Mentioned: 2023-05-08""");
  }

  @Test
  void itemIsExactlyWhatTheWholeShows() {
    Candidate turn = Cands.turn("s1", 3, "Dana: hello", .7);
    Evidence e = new Evidence(4, .7, turn);
    assertThat(f.format(List.of(e))).contains(f.item(e));
    assertThat(f.item(e)).isEqualTo("[4] Dana: hello\nMentioned: 2023-05-08");
  }

  @Test
  void recordWithoutSpanFallsBackToRawTimeText() {
    Candidate rec = record("Dana plans a trip.", new TemporalScope("next summer", "", "", null, true));
    assertThat(f.item(rec, 1)).isEqualTo("[1] Dana plans a trip.\nDate: next summer");
    Candidate none = record("Dana likes tea.", TemporalScope.NONE);
    assertThat(f.item(none, 1)).isEqualTo("[1] Dana likes tea.");
  }

  @Test
  void emptyBlocksSayNone() {
    assertThat(f.format(List.of())).isEqualTo("Memory records:\n(none)\n\nConversation excerpts:\n(none)");
  }
}
