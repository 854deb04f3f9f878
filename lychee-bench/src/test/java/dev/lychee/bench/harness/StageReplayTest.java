package dev.lychee.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.bench.locomo.LocomoConversation;
import dev.lychee.bench.locomo.LocomoLoader;
import dev.lychee.bench.metrics.EvidenceScorer;
import dev.lychee.bench.metrics.SystemResult;
import dev.lychee.core.llm.O200kTokenCounter;
import dev.lychee.core.read.RetrievalConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class StageReplayTest {
  // budgets small enough that selection has to choose on the tiny conversations
  private static final EvidenceScorer SCORER = new EvidenceScorer(List.of(1, 2, 5), List.of(40, 80, 160),
      new O200kTokenCounter());

  private static List<LocomoConversation> tiny() throws Exception {
    try (InputStream in = StageReplayTest.class.getResourceAsStream("/locomo-tiny.json")) {
      return LocomoLoader.load(in);
    }
  }

  @Test
  void theDefaultSettingsReproduceTheCapturedRecallsAndAnotherSettingIsScoredOnTheSameQuestions() throws Exception {
    try (StageReplay replay = new StageReplay(new HashingEmbedder(), SCORER)) {
      replay.capture(tiny(), Progress.silent());
      assertThat(replay.questions()).isEqualTo(6);
      SystemResult live = replay.live("live");
      SystemResult again = replay.replay(ReplayVariant.defaults("live"));
      // same routes, same channel hits, same stages: every metric of every category is the same
      assertThat(again).isEqualTo(live);
      assertThat(live.overall().budgetTokens().get(40)).isPositive().isLessThanOrEqualTo(40);

      SystemResult fewer = replay.replay(ReplayVariant.parse("narrow pf=1 wturns=1"));
      assertThat(fewer.overall().questions()).isEqualTo(6);
      assertThat(fewer.overall().budgetTokens().get(160)).isLessThanOrEqualTo(160);
      assertThat(fewer.overall().overBudget()).isZero();
    }
  }

  @Test
  void aVariantLineSetsItsKeysAndLeavesTheRestAtTheDefaults() {
    ReplayVariant v = ReplayVariant.parse("  tighter   mp=250 mpcost=0.1 div=0.2 rsim=0.4 wtrim=100 rbmp=0.45 ");
    RetrievalConfig d = RetrievalConfig.defaults();
    assertThat(v.name()).isEqualTo("tighter");
    assertThat(v.config().budget().multiPartRecordsAbove()).isEqualTo(250);
    assertThat(v.config().budget().multiPartCostExponent()).isEqualTo(0.1);
    assertThat(v.config().budget().costExponent()).isEqualTo(d.budget().costExponent());
    assertThat(v.config().budget().nestFloor()).isEqualTo(d.budget().nestFloor());
    assertThat(v.config().mmr().diversity()).isEqualTo(0.2);
    assertThat(v.config().mmr().session()).isEqualTo(d.mmr().session());
    assertThat(v.config().rerank().similarity()).isEqualTo(0.4);
    assertThat(v.config().rerank().lexical()).isEqualTo(d.rerank().lexical());
    assertThat(v.config().windows().trimLineChars()).isEqualTo(100);
    assertThat(v.recordBase()).isEqualTo(d.weights().recordBase());
    assertThat(v.multiPartRecordBase()).isEqualTo(0.45);
    assertThat(ReplayVariant.defaults("d").multiPartRecordBase()).isEqualTo(d.weights().recordBase());
  }

  @Test
  void aBadLineIsRejectedWithWhatIsWrong() {
    assertThatThrownBy(() -> ReplayVariant.parse("x nosuch=1")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nosuch");
    assertThatThrownBy(() -> ReplayVariant.parse("x mp")).hasMessageContaining("key=value");
    assertThatThrownBy(() -> ReplayVariant.parse("mp=1")).hasMessageContaining("name");
  }
}
