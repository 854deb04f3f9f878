package dev.lychee.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lychee.api.QuestionType;
import dev.lychee.core.fuse.FusionConfig;
import dev.lychee.core.recall.ChannelBudgets;
import dev.lychee.core.recall.ChannelWeights;
import dev.lychee.core.rerank.RerankWeights;
import dev.lychee.core.select.MmrConfig;
import dev.lychee.core.strategy.Strategies;
import dev.lychee.core.strategy.StrategyProfile;
import org.junit.jupiter.api.Test;

/** The stage configurations: documented defaults, builders that name the bad setting, immutability. */
class RetrievalConfigTest {

  @Test
  void defaultsAreTheDocumentedValues() {
    RetrievalConfig c = RetrievalConfig.defaults();
    assertThat(c.maxVariants()).isEqualTo(8);
    assertThat(c.reranker()).isTrue();
    assertThat(c.weights().recordBase()).isEqualTo(.40);
    assertThat(c.weights().rawScale()).isEqualTo(.42);
    assertThat(c.fusion().rrfK()).isEqualTo(60);
    assertThat(c.fusion().bestWeight()).isEqualTo(.82);
    assertThat(c.mmr().diversity()).isEqualTo(.15);
    assertThat(c.mmr().episodeLimiter()).isFalse();
    assertThat(c.rerank().sum()).isCloseTo(1.41, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(c.windows().maxTurns()).isEqualTo(7);
    assertThat(c.windows().trimLineChars()).isEqualTo(160);
    assertThat(c.boosts().temporalSpan()).isEqualTo(.08);
    StrategyProfile prior = c.strategy(QuestionType.PRIOR_ASSISTANT_RESPONSE);
    assertThat(prior.turnMultiplier()).isEqualTo(3.0);
    assertThat(prior.assistantBonus()).isEqualTo(.18);
    assertThat(prior.sourceMaxChars()).isEqualTo(7000);
    assertThat(c.strategy(null)).isSameAs(c.strategy(QuestionType.SINGLE));
    assertThat(c.strategy(QuestionType.OTHER)).isSameAs(c.strategy(QuestionType.SINGLE));
  }

  @Test
  void budgetsFollowTheDepth() {
    ChannelBudgets b = ChannelBudgets.defaults();
    StrategyProfile single = Strategies.defaults().of(QuestionType.SINGLE);
    StrategyProfile aggregate = Strategies.defaults().of(QuestionType.AGGREGATE);
    assertThat(b.depth(5)).isEqualTo(15);
    assertThat(b.depth(20)).isEqualTo(20);
    assertThat(b.nodes(5, single)).isEqualTo(45);
    assertThat(b.nodes(5, aggregate)).isEqualTo(69); // ⌊45·1.55⌋
    assertThat(b.records(5, single)).isEqualTo(45);
    assertThat(b.turns(5, single)).isEqualTo(20);
    assertThat(b.temporalNodes(20)).isEqualTo(200);
  }

  @Test
  void buildersNameTheSettingThatIsOutOfRange() {
    assertThatThrownBy(() -> ChannelWeights.builder().entity(1.5).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("ChannelWeights.entity must lie in [0, 1]: 1.5");
    assertThatThrownBy(() -> ChannelWeights.builder().record(.3, Double.NaN).build())
        .hasMessage("ChannelWeights.recordScale must lie in [0, 1]: NaN");
    assertThatThrownBy(() -> ChannelBudgets.builder().lexicalLimit(0).build())
        .hasMessage("ChannelBudgets.lexicalLimit must be >= 1: 0");
    assertThatThrownBy(() -> FusionConfig.builder().rrfWeight(-1).build())
        .hasMessage("FusionConfig.rrfWeight must be >= 0: -1.0");
    assertThatThrownBy(() -> MmrConfig.builder().poolFactor(0).build())
        .hasMessage("MmrConfig.poolFactor must be >= 1: 0");
    assertThatThrownBy(() -> RerankWeights.builder().fused(0).similarity(0).lexical(0).speaker(0).temporal(0).build())
        .hasMessage("RerankWeights: the weights must have a positive sum");
    assertThatThrownBy(() -> WindowConfig.builder().maxTurns(0).build())
        .hasMessage("WindowConfig.maxTurns must be >= 1: 0");
    assertThatThrownBy(() -> ScoreBoosts.builder().sourceTime(2).build())
        .hasMessage("ScoreBoosts.sourceTime must lie in [0, 1]: 2.0");
    assertThatThrownBy(() -> StrategyProfile.builder().sourceMaxChars(10).build())
        .hasMessage("StrategyProfile.sourceMaxChars must be >= 64: 10");
    assertThatThrownBy(() -> StrategyProfile.builder().nodeMultiplier(0).build())
        .hasMessage("StrategyProfile.nodeMultiplier must be > 0: 0.0");
    assertThatThrownBy(() -> RetrievalConfig.builder().maxVariants(0).build())
        .hasMessage("RetrievalConfig.maxVariants must be >= 1: 0");
    assertThatThrownBy(() -> RetrievalConfig.builder().mmr(null)).isInstanceOf(NullPointerException.class)
        .hasMessage("mmr");
  }

  @Test
  void toBuilderKeepsEveryPartAndChangesOnlyWhatIsSet() {
    RetrievalConfig base = RetrievalConfig.builder()
        .strategy(QuestionType.TEMPORAL, StrategyProfile.builder().sourceWindow(3).build())
        .reranker(false)
        .build();
    RetrievalConfig changed = base.toBuilder()
        .windows(base.windows().toBuilder().enabled(false).build())
        .build();
    assertThat(changed.windows().enabled()).isFalse();
    assertThat(base.windows().enabled()).isTrue();
    assertThat(changed.reranker()).isFalse();
    assertThat(changed.strategy(QuestionType.TEMPORAL).sourceWindow()).isEqualTo(3);
    assertThat(changed.budgets()).isSameAs(base.budgets());
    assertThat(changed.strategies().asMap()).hasSize(QuestionType.values().length);
    assertThat(StrategyProfile.builder().build().toBuilder().build().toString())
        .isEqualTo(StrategyProfile.builder().build().toString());
  }
}
