package dev.lychee.core.recall;

import com.google.inject.AbstractModule;
import com.google.inject.Singleton;
import com.google.inject.multibindings.Multibinder;
import dev.lychee.api.spi.Fuser;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.Reranker;
import dev.lychee.api.spi.Selector;
import dev.lychee.core.fuse.RrfQuotaFuser;
import dev.lychee.core.rerank.FeatureReranker;
import dev.lychee.core.select.MmrSelector;
import java.util.Objects;

/**
 * Binds the retrieval stages for a {@link RetrievalConfig}: the five recall channels (through a
 * {@code Multibinder<RecallChannel>}, so users add their own with
 * {@code Multibinder.newSetBinder(binder(), RecallChannel.class).addBinding().to(...)}), the
 * RRF-with-quota fuser, the feature reranker (used when the configuration enables reranking;
 * override the {@link Reranker} binding for a custom one), the MMR selector and the
 * {@link RecallPipeline}.
 *
 * <p>It binds no RecordStore, VectorIndex, Embedder or ChatModel, and neither the planner nor the
 * answer generator: {@code LycheeModule} chooses those (rule-based or LLM, extractive or LLM) from
 * the Lychee configuration.
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
    Multibinder<RecallChannel> channels = Multibinder.newSetBinder(binder(), RecallChannel.class);
    channels.addBinding().to(TemporalRangeChannel.class);
    channels.addBinding().to(EvidenceNodeChannel.class);
    channels.addBinding().to(RecordVectorChannel.class);
    channels.addBinding().to(RawTurnChannel.class);
    channels.addBinding().to(LexicalChannel.class);
    bind(Fuser.class).to(RrfQuotaFuser.class).in(Singleton.class);
    bind(Reranker.class).to(FeatureReranker.class).in(Singleton.class);
    bind(Selector.class).to(MmrSelector.class).in(Singleton.class);
    bind(RecallPipeline.class).in(Singleton.class);
  }
}
