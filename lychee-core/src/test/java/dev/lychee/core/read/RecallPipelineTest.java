package dev.lychee.core.read;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Module;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.util.Modules;
import dev.lychee.api.DateRange;
import dev.lychee.api.Evidence;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.Fuser;
import dev.lychee.api.spi.QueryPlanner;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.Reranker;
import dev.lychee.api.spi.Selector;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.fuse.MaxScoreFuser;
import dev.lychee.core.plan.RuleBasedPlanner;
import dev.lychee.core.plan.SingleRoutePlanner;
import dev.lychee.core.recall.EvidenceNodeChannel;
import dev.lychee.core.recall.LexicalChannel;
import dev.lychee.core.recall.RawTurnChannel;
import dev.lychee.core.recall.RecordVectorChannel;
import dev.lychee.core.recall.TemporalRangeChannel;
import dev.lychee.core.select.TopKSelector;
import dev.lychee.core.testing.MemoryFixture;
import java.time.LocalDate;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/** End to end over a small hand-written conversation; each question is won by a different channel. */
class RecallPipelineTest {
  private MemoryFixture f;

  @BeforeEach
  void setUp() {
    f = new MemoryFixture();
    f.session("s1", LocalDate.of(2023, 5, 8),
        "Dana: I signed up for a pottery class at the community centre.",
        "Omar: Nice. Dana, what name did you pick for the new puppy?",
        "Dana: We called him Biscuit, after the colour of his fur.",
        "Omar: My studio uses a Shimpo wheel, the XR7 model.",
        "Dana: I have been reading a lot of mystery novels lately.");
    f.session("s2", LocalDate.of(2023, 6, 20),
        "Omar: I finished the race in under four hours!",
        "Dana: Congratulations, that is amazing.",
        "Omar: Next I want to learn to sail.");
    MemoryRecord race = f.record("s2", 0, MemoryType.EVENT, "Omar completed the city marathon on 20 June 2023.",
        List.of("Omar"), LocalDate.of(2023, 6, 20));
    MemoryRecord books = f.record("s1", 4, MemoryType.PREFERENCE, "Dana enjoys reading mystery novels.",
        List.of("Dana"), null);
    f.node(NodeKind.TEMPORAL, "day:2023-06-20", "Time: 2023-06-20", DateRange.day(LocalDate.of(2023, 6, 20)), race);
    f.node(NodeKind.TAG, "hobbies", "Tag: hobbies\nEntities: Dana\nRecord: Dana enjoys reading mystery novels.",
        null, books);
  }

  private RecallPipeline pipeline(RetrievalConfig cfg, Module... overrides) {
    Module base = Modules.combine(new RetrievalModule(cfg), new AbstractModule() {
      @Override
      protected void configure() {
        bind(RecordStore.class).toInstance(f.store);
        bind(VectorIndex.class).toInstance(f.vectors);
        bind(Embedder.class).toInstance(f.embedder);
        bind(QueryPlanner.class).to(RuleBasedPlanner.class);
      }
    });
    Injector injector = Guice.createInjector(Modules.override(base).with(overrides));
    return injector.getInstance(RecallPipeline.class);
  }

  /** Binds exactly these channels in place of the built-in set. */
  @SafeVarargs
  private static Module onlyChannels(Class<? extends RecallChannel>... types) {
    return new AbstractModule() {
      @Provides
      @Singleton
      Set<RecallChannel> channels(Injector injector) {
        Set<RecallChannel> out = new LinkedHashSet<>();
        for (Class<? extends RecallChannel> t : types) {
          out.add(injector.getInstance(t));
        }
        return out;
      }
    };
  }

  private static RetrievalConfig noWindows() {
    RetrievalConfig d = RetrievalConfig.defaults();
    return d.toBuilder().windows(d.windows().toBuilder().enabled(false).build()).build();
  }

  private static Recall ask(RecallPipeline p, String q) {
    return p.recall(new Question(MemoryFixture.NS, q, 5, null));
  }

  private static boolean covers(Recall r, TurnRef gold, int k, Predicate<Evidence> how) {
    return r.evidence().stream().limit(k).anyMatch(e -> e.turns().contains(gold) && how.test(e));
  }

  private static Predicate<Evidence> via(String channel) {
    return e -> e.candidate().provenance().channels().contains(channel);
  }

  @Test
  void eachQuestionIsWonThroughItsChannel() {
    RecallPipeline p = pipeline(RetrievalConfig.defaults());
    // the answer is in the reply after the matched question: a source window shows it
    assertThat(covers(ask(p, "What name did Dana pick for the new puppy?"), TurnRef.of("s1", 2), 3,
        via(SourceWindows.NAME))).isTrue();
    // a date in the question: the temporal channel reaches the dated record
    assertThat(covers(ask(p, "What did Omar do on 20 June 2023?"), TurnRef.of("s2", 0), 5,
        via(TemporalRangeChannel.NAME))).isTrue();
    // a rare model number: lexical search finds it
    assertThat(covers(ask(p, "Which XR7 model?"), TurnRef.of("s1", 3), 3, via(LexicalChannel.NAME))).isTrue();
    // a topic the record carries as a tag: the evidence-node channel links it (raw turns, which
    // would cover the same turn first, are switched off to see it)
    RecallPipeline noRaw = pipeline(noWindows(),
        onlyChannels(TemporalRangeChannel.class, EvidenceNodeChannel.class, RecordVectorChannel.class));
    assertThat(covers(ask(noRaw, "What hobbies does Dana have?"), TurnRef.of("s1", 4), 5,
        via(EvidenceNodeChannel.NAME))).isTrue();
    // a plain verbatim fact without a record: the raw-turn channel
    assertThat(covers(ask(p, "What does Omar want to learn next?"), TurnRef.of("s2", 2), 3,
        via(RawTurnChannel.NAME))).isTrue();
  }

  @Test
  void recallReportsThePlanTimingAndAtMostKItems() {
    Recall r = ask(pipeline(RetrievalConfig.defaults()), "What did Omar do on 20 June 2023?");
    assertThat(r.plan().temporalFilter()).isEqualTo(DateRange.day(LocalDate.of(2023, 6, 20)));
    assertThat(r.evidence()).hasSizeLessThanOrEqualTo(5);
    assertThat(r.elapsedNanos()).isPositive();
    assertThat(r.evidence()).extracting(Evidence::rank).containsExactly(
        java.util.stream.IntStream.rangeClosed(1, r.evidence().size()).boxed().toArray(Integer[]::new));
  }

  @Test
  void stagesAreChosenByBindingNotByFlags() {
    Recall recordOnly = ask(pipeline(noWindows(), onlyChannels(RecordVectorChannel.class)),
        "What did Omar do on 20 June 2023?");
    assertThat(recordOnly.evidence()).isNotEmpty().allMatch(e -> e.candidate().provenance().channels()
        .equals(List.of(RecordVectorChannel.NAME)));

    Recall single = ask(pipeline(RetrievalConfig.defaults(), new AbstractModule() {
      @Override
      protected void configure() {
        bind(QueryPlanner.class).to(SingleRoutePlanner.class);
      }
    }), "What did Omar do on 20 June 2023?");
    assertThat(single.plan().routes()).hasSize(1);
    assertThat(single.plan().temporalFilter()).isNull();

    Recall plain = ask(pipeline(RetrievalConfig.defaults(), new AbstractModule() {
      @Override
      protected void configure() {
        bind(Fuser.class).to(MaxScoreFuser.class);
        bind(Reranker.class).toInstance(Reranker.NONE);
        bind(Selector.class).to(TopKSelector.class);
      }
    }), "What did Omar do on 20 June 2023?");
    assertThat(plain.evidence()).isNotEmpty();
    for (int i = 1; i < plain.evidence().size(); i++) {
      assertThat(plain.evidence().get(i - 1).score()).isGreaterThanOrEqualTo(plain.evidence().get(i).score());
    }
  }

  @Test
  void turningTheRerankerOffKeepsTheFusedOrder() {
    Recall off = ask(pipeline(RetrievalConfig.builder().reranker(false).build(), new AbstractModule() {
      @Override
      protected void configure() {
        bind(Selector.class).to(TopKSelector.class);
      }
    }), "What did Omar do on 20 June 2023?");
    Recall fusedOnly = ask(pipeline(RetrievalConfig.defaults(), new AbstractModule() {
      @Override
      protected void configure() {
        bind(Reranker.class).toInstance(Reranker.NONE);
        bind(Selector.class).to(TopKSelector.class);
      }
    }), "What did Omar do on 20 June 2023?");
    assertThat(off.evidence()).extracting(e -> e.candidate().id())
        .containsExactlyElementsOf(fusedOnly.evidence().stream().map(e -> e.candidate().id()).toList());
  }

  @Test
  void anEmptyNamespaceRecallsNothing() {
    Recall r = pipeline(RetrievalConfig.defaults()).recall(Question.of("nobody", "What did Omar do?"));
    assertThat(r.evidence()).isEmpty();
  }

  @Test
  void usersCanAddTheirOwnChannel() {
    Injector injector = Guice.createInjector(new RetrievalModule(), new AbstractModule() {
      @Override
      protected void configure() {
        bind(RecordStore.class).toInstance(f.store);
        bind(VectorIndex.class).toInstance(f.vectors);
        bind(Embedder.class).toInstance(f.embedder);
        bind(QueryPlanner.class).to(RuleBasedPlanner.class);
        com.google.inject.multibindings.Multibinder.newSetBinder(binder(), RecallChannel.class).addBinding()
            .toInstance(new RecallChannel() {
              @Override
              public String name() {
                return "custom";
              }

              @Override
              public List<dev.lychee.api.Candidate> recall(dev.lychee.api.RecallRoute route,
                  dev.lychee.api.spi.RecallContext context) {
                return List.of();
              }
            });
      }
    });
    Set<RecallChannel> channels = injector.getInstance(
        com.google.inject.Key.get(new com.google.inject.TypeLiteral<Set<RecallChannel>>() {}));
    assertThat(channels).extracting(RecallChannel::name).contains("custom", RawTurnChannel.NAME, LexicalChannel.NAME,
        RecordVectorChannel.NAME, EvidenceNodeChannel.NAME, TemporalRangeChannel.NAME);
  }

  @Test
  void aCustomChannelSearchesVectorsThroughTheRecallsSharedSearches() {
    List<dev.lychee.api.spi.VectorSearches> seen = new java.util.ArrayList<>();
    List<List<List<dev.lychee.api.ScoredId>>> shared = new java.util.ArrayList<>();
    List<List<List<dev.lychee.api.ScoredId>>> direct = new java.util.ArrayList<>();
    RecallChannel custom = new RecallChannel() {
      @Override
      public String name() {
        return "custom";
      }

      @Override
      public List<dev.lychee.api.Candidate> recall(dev.lychee.api.RecallRoute route,
          dev.lychee.api.spi.RecallContext context) {
        seen.add(context.searches());
        shared.add(context.searchAll(f.vectors, VectorIndex.TURNS, context.query(route), 3));
        direct.add(dev.lychee.api.spi.VectorSearches.DIRECT.searchAll(f.vectors, context.namespace(),
            VectorIndex.TURNS, context.query(route), 3));
        return List.of();
      }
    };
    RecallPipeline p = pipeline(RetrievalConfig.defaults(), new AbstractModule() {
      @Provides
      @Singleton
      Set<RecallChannel> channels(Injector injector) {
        return Set.of(injector.getInstance(RawTurnChannel.class), custom);
      }
    });
    ask(p, "What did Omar finish in June?");
    ask(p, "What is the puppy called?");
    assertThat(seen).hasSizeGreaterThanOrEqualTo(2).allMatch(s -> s instanceof dev.lychee.core.recall.PlanSearches);
    // one recall's searches are its own
    assertThat(seen.get(0)).isNotSameAs(seen.get(seen.size() - 1));
    assertThat(shared).isEqualTo(direct);
    assertThat(shared.get(0).get(0)).isNotEmpty();
  }
}
