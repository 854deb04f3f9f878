package dev.lychee.bench.systems;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.lychee.api.NodeKind;
import dev.lychee.api.spi.Fuser;
import dev.lychee.api.spi.QueryPlanner;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.Reranker;
import dev.lychee.api.spi.Selector;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.fuse.MaxScoreFuser;
import dev.lychee.api.QuestionType;
import dev.lychee.core.plan.PlanRules;
import dev.lychee.core.plan.SingleRoutePlanner;
import dev.lychee.core.read.RetrievalConfig;
import dev.lychee.core.recall.ChannelBudgets;
import dev.lychee.core.recall.ChannelWeights;
import dev.lychee.core.recall.EvidenceNodeChannel;
import dev.lychee.core.recall.LexicalChannel;
import dev.lychee.core.recall.RecordVectorChannel;
import dev.lychee.core.recall.TemporalRangeChannel;
import dev.lychee.core.rerank.LatestFirstConfig;
import dev.lychee.core.segment.SegmentationConfig;
import dev.lychee.core.select.TopKSelector;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The evaluation's ablations of the Lychee read side. Each one is a Guice module that overrides
 * bindings of {@code LycheeModule} (the channels, the planner, or the fuser, reranker and
 * selector), plus, for the two that leave raw turns out, source windows switched off. The
 * {@code lychee-plan-*} variants keep every binding and change one rule of the rule-based planner
 * ({@link PlanRules}), so each kind of route can be measured against the plan without it. Production
 * code knows nothing of them.
 */
public enum Ablation {
  /** The full pipeline. */
  NONE("lychee", false) {
    @Override
    public List<Module> overrides() {
      return List.of();
    }
  },
  /** Only the record-vector channel; no source windows. */
  RECORD_ONLY("lychee-record-only", true) {
    @Override
    public List<Module> overrides() {
      return List.of(new AbstractModule() {
        @Provides
        @Singleton
        Set<RecallChannel> channels(RecordVectorChannel records) {
          return Set.of(records);
        }
      });
    }
  },
  /** One route holding the question: no planner call. */
  NO_PLANNER("lychee-no-planner", false) {
    @Override
    public List<Module> overrides() {
      return List.of(new AbstractModule() {
        @Override
        protected void configure() {
          bind(QueryPlanner.class).to(SingleRoutePlanner.class);
        }
      });
    }
  },
  /** Routes merged by best score; no reranker, no MMR, no episode limiter. */
  NO_FUSION("lychee-no-fusion", false) {
    @Override
    public List<Module> overrides() {
      return List.of(new AbstractModule() {
        @Override
        protected void configure() {
          bind(Fuser.class).to(MaxScoreFuser.class);
          bind(Reranker.class).toInstance(Reranker.NONE);
          bind(Selector.class).to(TopKSelector.class);
        }
      });
    }
  },
  /** No raw-turn channel, lexical search over records only, no source windows. */
  NO_RAW("lychee-no-raw", true) {
    @Override
    public List<Module> overrides() {
      return List.of(new AbstractModule() {
        @Provides
        @Singleton
        Set<RecallChannel> channels(TemporalRangeChannel temporal, EvidenceNodeChannel nodes,
            RecordVectorChannel records, RecordStore store, ChannelBudgets budgets, ChannelWeights weights) {
          Set<RecallChannel> out = new LinkedHashSet<>();
          out.add(temporal);
          out.add(nodes);
          out.add(records);
          out.add(new LexicalChannel(store, budgets, weights, EnumSet.of(TextField.RECORDS)));
          return out;
        }
      });
    }
  },
  /** The rule-based planner without per-person routes (issue 20.2: does that route type pay?). */
  PLAN_NO_PERSON("lychee-plan-no-person", false) {
    @Override
    PlanRules plan(PlanRules base) {
      return base.toBuilder().perPersonRoutes(false).build();
    }
  },
  /** The rule-based planner without date filters. */
  PLAN_NO_FILTER("lychee-plan-no-filter", false) {
    @Override
    PlanRules plan(PlanRules base) {
      return base.toBuilder().dateFilters(false).build();
    }
  },
  /** The rule-based planner with the question as the only query of each route. */
  PLAN_NO_VARIANTS("lychee-plan-no-variants", false) {
    @Override
    PlanRules plan(PlanRules base) {
      return base.toBuilder().queryVariants(false).build();
    }
  },
  /** Temporal questions get the single-route plan; the others are planned. */
  PLAN_SINGLE_TEMPORAL("lychee-plan-single-temporal", false) {
    @Override
    PlanRules plan(PlanRules base) {
      return withSingle(base, QuestionType.TEMPORAL);
    }
  },
  /** Aggregate (list, count) questions get the single-route plan. */
  PLAN_SINGLE_AGGREGATE("lychee-plan-single-aggregate", false) {
    @Override
    PlanRules plan(PlanRules base) {
      return withSingle(base, QuestionType.AGGREGATE);
    }
  },
  /** Advice questions get the single-route plan. */
  PLAN_SINGLE_ADVICE("lychee-plan-single-advice", false) {
    @Override
    PlanRules plan(PlanRules base) {
      return withSingle(base, QuestionType.PERSONALIZED_ADVICE);
    }
  },
  /**
   * Temporal questions searched with the question alone, their plan otherwise kept
   * ({@link PlanRules#plainQueryTypes()}): does the query-variant route type pay for them?
   */
  PLAN_PLAIN_TEMPORAL("lychee-plan-plain-temporal", false) {
    @Override
    PlanRules plan(PlanRules base) {
      EnumSet<QuestionType> plain = EnumSet.of(QuestionType.TEMPORAL);
      plain.addAll(base.plainQueryTypes());
      return base.toBuilder().plainQueryTypes(plain).build();
    }
  },
  /** Questions in the hypothetical form searched with the question alone (PlanRules.Hypothetical). */
  PLAN_HYPOTHETICAL_PLAIN("lychee-plan-hypothetical-plain", false) {
    @Override
    PlanRules plan(PlanRules base) {
      return base.toBuilder().hypothetical(PlanRules.Hypothetical.QUESTION_ONLY).build();
    }
  },
  /** Questions in the hypothetical form get the single-route plan. */
  PLAN_HYPOTHETICAL_SINGLE("lychee-plan-hypothetical-single", false) {
    @Override
    PlanRules plan(PlanRules base) {
      return base.toBuilder().hypothetical(PlanRules.Hypothetical.SINGLE_ROUTE).build();
    }
  },
  /** Questions in the hypothetical form planned like any other of their type. */
  PLAN_HYPOTHETICAL_TYPED("lychee-plan-hypothetical-typed", false) {
    @Override
    PlanRules plan(PlanRules base) {
      return base.toBuilder().hypothetical(PlanRules.Hypothetical.TYPED).build();
    }
  },
  /**
   * The reranker's latest-first rule for questions about the present switched off
   * ({@link RetrievalConfig#latestFirst()}), so what the default's preference for the latest
   * statement costs or buys in recall stays measurable.
   */
  NO_LATEST_FIRST("lychee-no-latest-first", false) {
    @Override
    RetrievalConfig retrieval(RetrievalConfig base) {
      return base.toBuilder().latestFirst(LatestFirstConfig.off()).build();
    }
  },
  /**
   * A write-side variant (issue 21): every evidence node embeds its own text, tag and entity-tag
   * nodes included, instead of taking its records' mean vector ({@link IngestConfig#derivedNodeKinds()}
   * empty), so what the default's ingest saving costs in recall stays measurable.
   */
  EMBEDDED_NODES("lychee-embedded-nodes", false) {
    @Override
    IngestConfig ingest(IngestConfig base) {
      return base.toBuilder().derivedNodeKinds(Set.of()).build();
    }
  },
  /**
   * A write-side variant (issue 21): a turn that is an exchange on its own takes its exchange's
   * vector instead of being embedded itself ({@link IngestConfig#turnVectorsFromExchanges()}), one
   * embedding fewer per such turn; measured against the default before it could become one.
   */
  TURN_VECTORS_FROM_EXCHANGES("lychee-turn-vectors-from-exchanges", false) {
    @Override
    IngestConfig ingest(IngestConfig base) {
      return base.toBuilder().turnVectorsFromExchanges(true).build();
    }
  },
  /**
   * A write-side variant (issue 21), the reverse of {@link #TURN_VECTORS_FROM_EXCHANGES}: an
   * exchange of one whole turn is embedded as its turn's text and so takes the turn's vector
   * ({@link SegmentationConfig#exchangeVectorsFromTurns()}); the turn channel is untouched, the
   * segmenter sees slightly different vectors and reads them with the embedder's turn-text profile
   * ({@code Embedder.turnTextProfile()}, fitted so that segments stay as they are).
   */
  EXCHANGE_VECTORS_FROM_TURNS("lychee-exchange-vectors-from-turns", false) {
    @Override
    SegmentationConfig segmentation(SegmentationConfig base) {
      return base.toBuilder().exchangeVectorsFromTurns(true).build();
    }
  },
  /**
   * A write-side variant (issue 21): event-frame nodes, the longest texts an ingest embeds (a
   * frame lists up to 12 records), take the mean vector of their records as tag nodes do
   * ({@link IngestConfig#derivedNodeKinds()} with {@code EVENT_FRAME} added).
   */
  DERIVED_FRAMES("lychee-derived-frames", false) {
    @Override
    IngestConfig ingest(IngestConfig base) {
      Set<NodeKind> kinds = EnumSet.of(NodeKind.EVENT_FRAME);
      kinds.addAll(base.derivedNodeKinds());
      return base.toBuilder().derivedNodeKinds(kinds).build();
    }
  },
  /**
   * A write-side variant (issue 21): {@link #EXCHANGE_VECTORS_FROM_TURNS} and {@link #DERIVED_FRAMES}
   * together, the fewest texts per turn the write path can embed without dropping a channel.
   */
  FEWER_EMBEDDINGS("lychee-fewer-embeddings", false) {
    @Override
    SegmentationConfig segmentation(SegmentationConfig base) {
      return EXCHANGE_VECTORS_FROM_TURNS.segmentation(base);
    }

    @Override
    IngestConfig ingest(IngestConfig base) {
      return DERIVED_FRAMES.ingest(base);
    }
  },
  /**
   * A read-side variant (issue 21): at most two query variants embedded per plan, the question and
   * the next distinct one ({@link RetrievalConfig#maxEmbeddedVariants()}); the others still go to
   * the lexical channel.
   */
  EMBED_TWO_VARIANTS("lychee-embed-2-variants", false) {
    @Override
    RetrievalConfig retrieval(RetrievalConfig base) {
      return base.toBuilder().maxEmbeddedVariants(2).build();
    }
  },
  /**
   * The read side before issue 21's bound: every distinct query variant of the plan is embedded and
   * searched by the vector channels ({@link RetrievalConfig#maxEmbeddedVariants()} = 0; the default
   * embeds the question only).
   */
  EMBED_ALL_VARIANTS("lychee-embed-all-variants", false) {
    @Override
    RetrievalConfig retrieval(RetrievalConfig base) {
      return base.toBuilder().maxEmbeddedVariants(0).build();
    }
  },
  /**
   * A read-side timing variant (issue 21): no early-channel thread
   * ({@link RetrievalConfig#earlyChannelThreads()} = 0), so the lexical and temporal channels run on
   * the recalling thread after the query batch. Its evidence is the default's; only where the time
   * goes differs, which is what {@code eval speed --systems} compares it for.
   */
  NO_EARLY_CHANNELS("lychee-no-early-channels", false) {
    @Override
    RetrievalConfig retrieval(RetrievalConfig base) {
      return base.toBuilder().earlyChannelThreads(0).build();
    }
  };

  private final String systemName;
  private final boolean noWindows;

  Ablation(String systemName, boolean noWindows) {
    this.systemName = systemName;
    this.noWindows = noWindows;
  }

  /** The name {@code --systems} knows this ablation by. */
  public String systemName() {
    return systemName;
  }

  /** The modules that override Lychee's bindings for this ablation (none for the planner-rule variants). */
  public List<Module> overrides() {
    return List.of();
  }

  /** The planner rules this ablation runs with (the base ones unless it is a planner-rule variant). */
  PlanRules plan(PlanRules base) {
    return base;
  }

  /** The read side's other settings this ablation runs with (the base ones unless it changes one). */
  RetrievalConfig retrieval(RetrievalConfig base) {
    return base;
  }

  /** The write path's configuration this ablation runs with (the base one unless it is a write-side variant). */
  IngestConfig ingest(IngestConfig base) {
    return base;
  }

  /** The segmentation this ablation runs with (the base one unless it is a segmentation variant). */
  SegmentationConfig segmentation(SegmentationConfig base) {
    return base;
  }

  private static PlanRules withSingle(PlanRules base, QuestionType type) {
    EnumSet<QuestionType> types = EnumSet.of(type);
    types.addAll(base.singleRouteTypes());
    return base.toBuilder().singleRouteTypes(types).build();
  }

  /** The base configuration as this ablation runs it (source windows off when raw turns are left out). */
  public LycheeConfig configure(LycheeConfig base) {
    RetrievalConfig r = retrieval(base.retrieval());
    PlanRules rules = plan(r.plan());
    IngestConfig ingest = ingest(base.ingest());
    SegmentationConfig segmentation = segmentation(base.segmentation());
    if (!noWindows && r == base.retrieval() && rules == r.plan() && ingest == base.ingest()
        && segmentation == base.segmentation()) { // same objects: nothing changed
      return base;
    }
    RetrievalConfig.Builder b = r.toBuilder().plan(rules);
    if (noWindows) {
      b.windows(r.windows().toBuilder().enabled(false).build());
    }
    return base.toBuilder().retrieval(b.build()).ingest(ingest).segmentation(segmentation).build();
  }

  /** The ablation of a system name. */
  public static Ablation ofSystem(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    for (Ablation a : values()) {
      if (a.systemName.equals(n)) {
        return a;
      }
    }
    throw new IllegalArgumentException("not a lychee system: " + name);
  }
}
