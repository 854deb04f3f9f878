package dev.lychee.core;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.OptionalBinder;
import dev.lychee.api.LycheeException;
import dev.lychee.api.spi.AnswerGenerator;
import dev.lychee.api.spi.ChatModel;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.Encoder;
import dev.lychee.api.spi.QueryPlanner;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.Segmenter;
import dev.lychee.api.spi.TokenCounter;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.answer.ExtractiveAnswerGenerator;
import dev.lychee.core.answer.LlmAnswerGenerator;
import dev.lychee.core.encode.LlmEncoder;
import dev.lychee.core.encode.OfflineEncoder;
import dev.lychee.core.encode.ReferenceContextTracker;
import dev.lychee.api.spi.SegmentClaims;
import dev.lychee.core.fallback.DeadlineChatModel;
import dev.lychee.core.fallback.FallbackAnswerGenerator;
import dev.lychee.core.fallback.FallbackPlanner;
import dev.lychee.core.ingest.InProcessSegmentClaims;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.metrics.LycheeMetrics;
import dev.lychee.core.segment.SegmentationConfig;
import dev.lychee.core.organize.EvidenceOrganizer;
import dev.lychee.core.plan.LlmPlanner;
import dev.lychee.core.plan.RuleBasedPlanner;
import dev.lychee.core.read.RetrievalModule;
import dev.lychee.core.segment.Segmenters;
import dev.lychee.core.store.CheckedRecordStore;
import dev.lychee.core.store.InMemoryRecordStore;
import dev.lychee.core.vector.ExactVectorIndex;
import java.util.Objects;
import java.util.Optional;

/**
 * Binds Lychee's defaults: the in-memory store and exact vector index, the configured segmenter,
 * encoder, planner and answerer (offline ones unless a {@link ChatModel} is bound and the
 * configuration allows it), and the retrieval stages.
 *
 * <p>It binds no {@link Embedder}: add one module that does (for example {@code
 * OnnxEmbeddingModule} from {@code lychee-embed-onnx}). Backend modules replace the store and the
 * index; {@link Lychee#create} applies them as overrides of this module.
 */
public final class LycheeModule extends AbstractModule {
  private final LycheeConfig config;

  public LycheeModule() {
    this(LycheeConfig.defaults());
  }

  public LycheeModule(LycheeConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  @Override
  protected void configure() {
    bind(LycheeConfig.class).toInstance(config);
    OptionalBinder.newOptionalBinder(binder(), ChatModel.class);
    bind(VectorIndex.class).to(ExactVectorIndex.class).in(Singleton.class);
    bind(IngestConfig.class).toInstance(config.ingest());
    bind(SegmentationConfig.class).toInstance(config.segmentation());
    bind(SegmentClaims.class).to(InProcessSegmentClaims.class).in(Singleton.class);
    bind(LycheeMetrics.class).toInstance(LycheeMetrics.NOOP);
    install(new RetrievalModule(config.retrieval()));
  }

  @Provides
  @Singleton
  Segmenter.Factory segmenterFactory(Embedder embedder) {
    SegmentationConfig segmentation = config.segmentation();
    return Segmenters.factory(config.segmenter(), segmentation, Segmenters.profile(segmentation, embedder));
  }

  /** The in-memory default, behind the argument checks every store module puts in front of its backend. */
  @Provides
  @Singleton
  RecordStore recordStore() {
    return CheckedRecordStore.of(new InMemoryRecordStore());
  }

  @Provides
  @Singleton
  Encoder encoder(Optional<ChatModel> chat, TokenCounter tokens) {
    if (config.encoder().useLlm(chat.isPresent())) {
      return new LlmEncoder(requireChat(chat, "encoder"), tokens, config.encoding());
    }
    return new OfflineEncoder(config.encoding());
  }

  @Provides
  @Singleton
  QueryPlanner planner(Optional<ChatModel> chat, RuleBasedPlanner rules) {
    if (config.planner().useLlm(chat.isPresent())) {
      // reads wait for the LLM only until the read deadline; then the rule-based planner steps in
      return new LlmPlanner(new DeadlineChatModel(requireChat(chat, "planner")),
          new FallbackPlanner(rules, config.fallback().onLlmFailure()));
    }
    return rules;
  }

  @Provides
  @Singleton
  AnswerGenerator answerer(Optional<ChatModel> chat, TokenCounter tokens) {
    if (config.answerer().useLlm(chat.isPresent())) {
      return new FallbackAnswerGenerator(new LlmAnswerGenerator(new DeadlineChatModel(requireChat(chat, "answerer")), tokens),
          new ExtractiveAnswerGenerator(), config.fallback().onLlmFailure());
    }
    return new ExtractiveAnswerGenerator();
  }

  @Provides
  @Singleton
  ReferenceContextTracker references() {
    return new ReferenceContextTracker(config.encoding());
  }

  @Provides
  @Singleton
  EvidenceOrganizer organizer() {
    return new EvidenceOrganizer();
  }

  private static ChatModel requireChat(Optional<ChatModel> chat, String stage) {
    return chat.orElseThrow(() -> new LycheeException("the " + stage
        + " is configured for an LLM but no ChatModel is bound: add a provider module such as "
        + "OpenAiModule or OllamaModule, or set the mode to OFFLINE/AUTO"));
  }
}
