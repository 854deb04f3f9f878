package dev.lychee.core.recall;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import dev.lychee.api.DateRange;
import dev.lychee.api.Evidence;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.QueryPlanner;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.plan.RuleBasedPlanner;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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

  private RecallPipeline pipeline(RetrievalConfig cfg) {
    Injector injector = Guice.createInjector(new RetrievalModule(cfg), new AbstractModule() {
      @Override
      protected void configure() {
        bind(RecordStore.class).toInstance(f.store);
        bind(VectorIndex.class).toInstance(f.vectors);
        bind(Embedder.class).toInstance(f.embedder);
        bind(QueryPlanner.class).to(RuleBasedPlanner.class);
      }
    });
    return injector.getInstance(RecallPipeline.class);
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
    assertThat(covers(ask(pipeline(RetrievalConfig.builder().noRawTurns(true).build()), "What hobbies does Dana have?"),
        TurnRef.of("s1", 4), 5, via(EvidenceNodeChannel.NAME))).isTrue();
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
  void ablationsSwitchChannelsAndPlanning() {
    Recall recordOnly = ask(pipeline(RetrievalConfig.builder().recordVectorOnly(true).build()),
        "What did Omar do on 20 June 2023?");
    assertThat(recordOnly.evidence()).allMatch(e -> e.candidate().provenance().channels()
        .equals(List.of(RecordVectorChannel.NAME)));

    Recall noRaw = ask(pipeline(RetrievalConfig.builder().noRawTurns(true).build()), "What does Omar want to learn next?");
    assertThat(noRaw.evidence()).allMatch(e -> e.candidate().kind() == dev.lychee.api.CandidateKind.RECORD);

    Recall noPlanner = ask(pipeline(RetrievalConfig.builder().noPlanner(true).build()), "What did Omar do on 20 June 2023?");
    assertThat(noPlanner.plan().routes()).hasSize(1);
    assertThat(noPlanner.plan().temporalFilter()).isNull();

    Recall plain = ask(pipeline(RetrievalConfig.builder().noFusionRerankDiversity(true).build()),
        "What did Omar do on 20 June 2023?");
    for (int i = 1; i < plain.evidence().size(); i++) {
      assertThat(plain.evidence().get(i - 1).score()).isGreaterThanOrEqualTo(plain.evidence().get(i).score());
    }
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
}
