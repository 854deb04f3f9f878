package dev.lychee.core.read;

import com.google.inject.AbstractModule;
import com.google.inject.Singleton;
import com.google.inject.multibindings.Multibinder;
import dev.lychee.api.spi.Fuser;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.Reranker;
import dev.lychee.api.spi.Selector;
import dev.lychee.core.fuse.FusionConfig;
import dev.lychee.core.fuse.RrfQuotaFuser;
import dev.lychee.core.recall.ChannelBudgets;
import dev.lychee.core.recall.ChannelWeights;
import dev.lychee.core.recall.EvidenceNodeChannel;
import dev.lychee.core.recall.LexicalChannel;
import dev.lychee.core.recall.RawTurnChannel;
import dev.lychee.core.recall.RecordVectorChannel;
import dev.lychee.core.recall.TemporalRangeChannel;
import dev.lychee.core.rerank.FeatureReranker;
import dev.lychee.core.rerank.LatestFirstConfig;
import dev.lychee.core.rerank.RerankWeights;
import dev.lychee.api.spi.TokenCounter;
import dev.lychee.core.llm.O200kTokenCounter;
import dev.lychee.core.plan.PlanRules;
import dev.lychee.core.select.BudgetConfig;
import dev.lychee.core.select.MmrConfig;
import dev.lychee.core.select.MmrSelector;
import dev.lychee.core.strategy.Strategies;
import java.util.Objects;

/**
 * Binds the read side for a {@link RetrievalConfig}: each stage's own configuration, the five
 * built-in recall channels (through a {@code Multibinder<RecallChannel>}, so users add their own
 * with {@code Multibinder.newSetBinder(binder(), RecallChannel.class).addBinding().to(...)}), the
 * RRF-with-quota fuser, the feature reranker (or, when the configuration turns reranking off, one
 * that keeps the fused order), the MMR selector and the {@link RecallPipeline}.
 *
 * <p>Every stage is chosen here by binding; override a binding (with {@code Modules.override} or
 * the modules passed to {@code Lychee.create}) to replace a stage. It binds the
 * {@link TokenCounter} (o200k) because selection counts evidence tokens for token budgets; it binds
 * no RecordStore, VectorIndex, Embedder or ChatModel, and neither the planner nor the answer
 * generator.
 */
public final class RetrievalModule extends AbstractModule {
  private final RetrievalConfig config;

  public RetrievalModule() {
    this(RetrievalConfig.defaults());
  }

  public RetrievalModule(RetrievalConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  @Override
  protected void configure() {
    bind(RetrievalConfig.class).toInstance(config);
    bind(Strategies.class).toInstance(config.strategies());
    bind(ChannelBudgets.class).toInstance(config.budgets());
    bind(ChannelWeights.class).toInstance(config.weights());
    bind(FusionConfig.class).toInstance(config.fusion());
    bind(RerankWeights.class).toInstance(config.rerank());
    bind(LatestFirstConfig.class).toInstance(config.latestFirst());
    bind(MmrConfig.class).toInstance(config.mmr());
    bind(BudgetConfig.class).toInstance(config.budget());
    bind(PlanRules.class).toInstance(config.plan()); // read by the rule-based planner, bound elsewhere
    // selection sizes evidence to token budgets with the tokenizer the answer prompt is counted with
    bind(TokenCounter.class).to(O200kTokenCounter.class).in(Singleton.class);
    Multibinder<RecallChannel> channels = Multibinder.newSetBinder(binder(), RecallChannel.class);
    channels.addBinding().to(TemporalRangeChannel.class);
    channels.addBinding().to(EvidenceNodeChannel.class);
    channels.addBinding().to(RecordVectorChannel.class);
    channels.addBinding().to(RawTurnChannel.class);
    channels.addBinding().to(LexicalChannel.class);
    bind(Fuser.class).to(RrfQuotaFuser.class).in(Singleton.class);
    if (config.reranker()) {
      bind(Reranker.class).to(FeatureReranker.class).in(Singleton.class);
    } else {
      bind(Reranker.class).toInstance(Reranker.NONE);
    }
    bind(Selector.class).to(MmrSelector.class).in(Singleton.class);
    bind(RecallPipeline.class).in(Singleton.class);
  }
}
