package dev.lychee.bench.systems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.CandidateKind;
import dev.lychee.api.DateRange;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.recall.RawTurnChannel;
import dev.lychee.core.recall.RecordVectorChannel;
import dev.lychee.core.testing.MemoryFixture;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each ablation, applied through {@code Lychee.builder()} the way the harness applies it. */
class AblationTest {
  private static final String DATED = "What did Omar do on 20 June 2023?";
  private MemoryFixture f;

  @BeforeEach
  void setUp() {
    f = new MemoryFixture();
    f.session("s1", LocalDate.of(2023, 5, 8),
        "Dana: I signed up for a pottery class at the community centre.",
        "Omar: My studio uses a Shimpo wheel, the XR7 model.",
        "Dana: I have been reading a lot of mystery novels lately.");
    f.session("s2", LocalDate.of(2023, 6, 20),
        "Omar: I finished the race in under four hours!",
        "Dana: Congratulations, that is amazing.",
        "Omar: Next I want to learn to sail.");
    MemoryRecord race = f.record("s2", 0, MemoryType.EVENT, "Omar completed the city marathon on 20 June 2023.",
        List.of("Omar"), LocalDate.of(2023, 6, 20));
    f.record("s1", 2, MemoryType.PREFERENCE, "Dana enjoys reading mystery novels.", List.of("Dana"), null);
    f.node(NodeKind.TEMPORAL, "day:2023-06-20", "Time: 2023-06-20", DateRange.day(LocalDate.of(2023, 6, 20)), race);
  }

  private Recall ask(Ablation a, String question) {
    Lychee.Builder b = Lychee.builder().embedder(f.embedder).store(f.store).vectors(f.vectors)
        .config(a.configure(LycheeConfig.defaults()));
    a.overrides().forEach(b::module);
    Lychee lychee = b.build();
    return lychee.recall(new Question(MemoryFixture.NS, question, 5, null));
  }

  @Test
  void recordOnlyRunsTheRecordVectorChannelAlone() {
    Recall r = ask(Ablation.RECORD_ONLY, DATED);
    assertThat(r.evidence()).isNotEmpty().allMatch(e -> e.candidate().provenance().channels()
        .equals(List.of(RecordVectorChannel.NAME)));
  }

  @Test
  void noRawLeavesOutTurnsAndWindows() {
    assertThat(ask(Ablation.NONE, "What does Omar want to learn next?").evidence())
        .anyMatch(e -> e.candidate().kind() != CandidateKind.RECORD);
    Recall r = ask(Ablation.NO_RAW, "What does Omar want to learn next?");
    assertThat(r.evidence()).isNotEmpty().allMatch(e -> e.candidate().kind() == CandidateKind.RECORD)
        .noneMatch(e -> e.candidate().provenance().channels().contains(RawTurnChannel.NAME));
  }

  @Test
  void noPlannerAsksWithOneRouteAndNoDateFilter() {
    assertThat(ask(Ablation.NONE, DATED).plan().temporalFilter()).isNotNull();
    Recall r = ask(Ablation.NO_PLANNER, DATED);
    assertThat(r.plan().routes()).hasSize(1);
    assertThat(r.plan().temporalFilter()).isNull();
  }

  @Test
  void noFusionKeepsTheBestRouteScoreOrder() {
    Recall r = ask(Ablation.NO_FUSION, DATED);
    assertThat(r.evidence()).isNotEmpty();
    for (int i = 1; i < r.evidence().size(); i++) {
      assertThat(r.evidence().get(i - 1).score()).isGreaterThanOrEqualTo(r.evidence().get(i).score());
    }
  }

  @Test
  void systemNamesMapToAblations() {
    for (Ablation a : Ablation.values()) {
      assertThat(Ablation.ofSystem(a.systemName().toUpperCase(java.util.Locale.ROOT))).isEqualTo(a);
    }
    assertThatThrownBy(() -> Ablation.ofSystem("bm25")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bm25");
  }

  @Test
  void onlyTheAblationsWithoutRawTurnsSwitchWindowsOff() {
    LycheeConfig base = LycheeConfig.defaults();
    assertThat(Ablation.RECORD_ONLY.configure(base).retrieval().windows().enabled()).isFalse();
    assertThat(Ablation.NO_RAW.configure(base).retrieval().windows().enabled()).isFalse();
    assertThat(Ablation.NO_FUSION.configure(base)).isSameAs(base);
    assertThat(Ablation.NONE.overrides()).isEmpty();
  }

  @Test
  void writeSideVariantsChangeOnlyWhatIsEmbedded() {
    LycheeConfig base = LycheeConfig.defaults();
    assertThat(base.segmentation().exchangeVectorsFromTurns()).isFalse();
    LycheeConfig fromTurns = Ablation.EXCHANGE_VECTORS_FROM_TURNS.configure(base);
    assertThat(fromTurns.segmentation().exchangeVectorsFromTurns()).isTrue();
    assertThat(fromTurns.ingest()).isEqualTo(base.ingest());
    assertThat(fromTurns.retrieval()).hasToString(base.retrieval().toString());
    LycheeConfig frames = Ablation.DERIVED_FRAMES.configure(base);
    assertThat(frames.ingest().derivedNodeKinds())
        .containsExactlyInAnyOrder(NodeKind.TAG, NodeKind.ENTITY_TAG, NodeKind.EVENT_FRAME);
    assertThat(frames.segmentation()).isEqualTo(base.segmentation());
    LycheeConfig both = Ablation.ofSystem("lychee-fewer-embeddings").configure(base);
    assertThat(both.segmentation().exchangeVectorsFromTurns()).isTrue();
    assertThat(both.ingest().derivedNodeKinds()).contains(NodeKind.EVENT_FRAME);
  }

  @Test
  void plannerRuleVariantsChangeOneRuleThroughTheConfiguration() {
    Recall full = ask(Ablation.NONE, DATED);
    assertThat(full.plan().temporalFilter()).isNotNull();
    assertThat(ask(Ablation.PLAN_NO_FILTER, DATED).plan().temporalFilter()).isNull();
    assertThat(ask(Ablation.PLAN_NO_VARIANTS, DATED).plan().routes().get(0).queries()).containsExactly(DATED);
    Recall single = ask(Ablation.PLAN_SINGLE_TEMPORAL, "When did Omar run the race?");
    assertThat(single.plan().routes()).hasSize(1);
    assertThat(single.plan().type()).isEqualTo(dev.lychee.api.QuestionType.SINGLE);
    assertThat(ask(Ablation.NONE, "When did Omar run the race?").plan().type())
        .isEqualTo(dev.lychee.api.QuestionType.TEMPORAL);
    assertThat(ask(Ablation.PLAN_NO_PERSON, "Who has more pets, Dana or Omar?").plan().routes()).hasSize(1);
    assertThat(ask(Ablation.NONE, "Who has more pets, Dana or Omar?").plan().routes()).hasSize(2);
    assertThat(Ablation.PLAN_SINGLE_AGGREGATE.configure(LycheeConfig.defaults()).retrieval().plan().singleRouteTypes())
        .containsExactly(dev.lychee.api.QuestionType.AGGREGATE);
    assertThat(Ablation.ofSystem("lychee-plan-single-advice")).isEqualTo(Ablation.PLAN_SINGLE_ADVICE);
    // a duration question: a point-in-time one ("When did ...") searches with the question alone
    // by default already (docs/defaults.md §4.15, round 12)
    String when = "How long did Omar train for the city marathon with his sister?";
    assertThat(ask(Ablation.NONE, when).plan().routes().get(0).queries().size()).isGreaterThan(1);
    Recall plain = ask(Ablation.PLAN_PLAIN_TEMPORAL, when);
    assertThat(plain.plan().type()).isEqualTo(dev.lychee.api.QuestionType.TEMPORAL);
    assertThat(plain.plan().routes().get(0).queries()).containsExactly(when);
    // a supposition asked yes/no searches with the question alone by default (§4.15, round 15);
    // the typed variant plans it like any single fact, the single-route one drops its type
    String would = "Would Omar enjoy a long hike in the mountains with his sister?";
    assertThat(ask(Ablation.NONE, would).plan().routes().get(0).queries()).containsExactly(would);
    assertThat(ask(Ablation.PLAN_HYPOTHETICAL_TYPED, would).plan().routes().get(0).queries().size()).isGreaterThan(1);
    String might = "What sport might Omar take up with his sister next spring?";
    assertThat(ask(Ablation.NONE, might).plan().routes().get(0).queries().size()).isGreaterThan(1);
    assertThat(ask(Ablation.PLAN_HYPOTHETICAL_PLAIN, might).plan().routes().get(0).queries()).containsExactly(might);
    assertThat(ask(Ablation.PLAN_HYPOTHETICAL_SINGLE, might).plan().reason()).contains("hypothetical");
  }

  @Test
  void noEarlyChannelsChangesWhereChannelsRunNotWhatTheyFind() {
    LycheeConfig base = LycheeConfig.defaults();
    LycheeConfig off = Ablation.ofSystem("lychee-no-early-channels").configure(base);
    assertThat(off.retrieval().earlyChannelThreads()).isZero();
    assertThat(off.retrieval().toBuilder().earlyChannelThreads(base.retrieval().earlyChannelThreads()).build())
        .hasToString(base.retrieval().toString());
    assertThat(off.ingest()).isEqualTo(base.ingest());
    for (String q : List.of(DATED, "Who has more pets, Dana or Omar?", "What class did Dana sign up for?")) {
      assertThat(ask(Ablation.NO_EARLY_CHANNELS, q).evidence()).isEqualTo(ask(Ablation.NONE, q).evidence());
    }
  }
}
