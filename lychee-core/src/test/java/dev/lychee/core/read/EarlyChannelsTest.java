package dev.lychee.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Module;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.util.Modules;
import dev.lychee.api.Candidate;
import dev.lychee.api.DateRange;
import dev.lychee.api.Evidence;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.Question;
import dev.lychee.api.Recall;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.EmbedderDecorator;
import dev.lychee.api.spi.QueryPlanner;
import dev.lychee.api.spi.ReadPoint;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecallObserver;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.fallback.LlmUnavailableException;
import dev.lychee.core.fallback.ReadDeadline;
import dev.lychee.core.plan.RuleBasedPlanner;
import dev.lychee.core.recall.EvidenceNodeChannel;
import dev.lychee.core.recall.LexicalChannel;
import dev.lychee.core.recall.RawTurnChannel;
import dev.lychee.core.recall.RecordVectorChannel;
import dev.lychee.core.recall.TemporalRangeChannel;
import dev.lychee.core.testing.MemoryFixture;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 21: the channels that need no vectors (lexical, temporal range) run while the query batch
 * is embedded. Does a recall find the same evidence, and do failures and threads behave?
 */
class EarlyChannelsTest {
  private static final List<String> QUESTIONS = List.of("What name did Dana pick for the new puppy?",
      "What did Omar do on 20 June 2023?", "Which XR7 model?", "What hobbies does Dana have?",
      "What does Omar want to learn next?", "When did Dana sign up for pottery, and what did Omar finish?");

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

  private RecallPipeline pipeline(int earlyThreads, Embedder embedder, RecallChannel... extra) {
    return pipeline(earlyThreads, embedder, f.store, extra);
  }

  private RecallPipeline pipeline(int earlyThreads, Embedder embedder, RecordStore store, RecallChannel... extra) {
    return pipeline(earlyThreads, embedder, store, null, extra);
  }

  private RecallPipeline pipeline(int earlyThreads, Embedder embedder, QueryPlanner planner) {
    return pipeline(earlyThreads, embedder, f.store, planner);
  }

  /** With {@code planner} null, the rule-based planner. */
  private RecallPipeline pipeline(int earlyThreads, Embedder embedder, RecordStore store, QueryPlanner planner,
      RecallChannel... extra) {
    Module base = Modules.combine(new RetrievalModule(RetrievalConfig.builder().earlyChannelThreads(earlyThreads).build()),
        new AbstractModule() {
          @Override
          protected void configure() {
            bind(RecordStore.class).toInstance(store);
            bind(VectorIndex.class).toInstance(f.vectors);
            bind(Embedder.class).toInstance(embedder);
            if (planner == null) {
              bind(QueryPlanner.class).to(RuleBasedPlanner.class);
            } else {
              bind(QueryPlanner.class).toInstance(planner);
            }
          }
        });
    Module channels = new AbstractModule() {
      @Provides
      @Singleton
      Set<RecallChannel> channels(Injector injector) {
        Set<RecallChannel> out = new LinkedHashSet<>();
        for (Class<? extends RecallChannel> t : List.of(TemporalRangeChannel.class, EvidenceNodeChannel.class,
            RecordVectorChannel.class, RawTurnChannel.class, LexicalChannel.class)) {
          out.add(injector.getInstance(t));
        }
        out.addAll(List.of(extra));
        return out;
      }
    };
    return Guice.createInjector(Modules.override(base).with(channels)).getInstance(RecallPipeline.class);
  }

  private static Question question(String text) {
    return new Question(MemoryFixture.NS, text, 5, null);
  }

  /** Everything the observer saw, as text: channel hits per route in order, rankings, pools, picks. */
  private static final class Transcript implements RecallObserver {
    final List<String> lines = new ArrayList<>();

    @Override
    public void channel(RecallRoute route, String channel, List<Candidate> candidates) {
      lines.add(route.id() + " " + channel + " " + candidates);
    }

    @Override
    public void route(dev.lychee.api.spi.RouteRanking ranking) {
      lines.add("route " + ranking);
    }

    @Override
    public void reranked(List<Candidate> pool) {
      lines.add("reranked " + pool);
    }
  }

  @Test
  void aRecallFindsTheSameEvidenceAndShowsTheObserverTheSameStagesInTheSameOrder() {
    try (RecallPipeline sequential = pipeline(0, f.embedder); RecallPipeline early = pipeline(2, f.embedder)) {
      for (String q : QUESTIONS) {
        Transcript a = new Transcript();
        Transcript b = new Transcript();
        List<Evidence> one = sequential.recall(question(q), a).evidence();
        List<Evidence> two = early.recall(question(q), b).evidence();
        assertThat(two).as(q).isEqualTo(one);
        assertThat(b.lines).as(q).isEqualTo(a.lines);
        assertThat(a.lines).anyMatch(l -> l.contains(" " + LexicalChannel.NAME + " "));
      }
    }
  }

  /** A channel that needs no vectors and records where and with what it ran. */
  private static final class TextOnly implements RecallChannel {
    final AtomicReference<Thread> thread = new AtomicReference<>();
    final AtomicBoolean hadVectors = new AtomicBoolean();
    final AtomicReference<RuntimeException> vectorRead = new AtomicReference<>();
    final RuntimeException failure;
    final long sleepMs;
    final AtomicBoolean finished = new AtomicBoolean();

    TextOnly(RuntimeException failure, long sleepMs) {
      this.failure = failure;
      this.sleepMs = sleepMs;
    }

    @Override
    public String name() {
      return "text-only";
    }

    @Override
    public boolean needsVectors() {
      return false;
    }

    @Override
    public List<Candidate> recall(RecallRoute route, RecallContext context) {
      thread.set(Thread.currentThread());
      hadVectors.set(context.query(route).hasVectors());
      try {
        context.query(route).vector(context.query(route).variants().get(0));
      } catch (RuntimeException e) {
        vectorRead.set(e);
      }
      try {
        Thread.sleep(sleepMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      finished.set(true);
      if (failure != null) {
        throw failure;
      }
      return List.of();
    }
  }

  @Test
  void aChannelThatNeedsNoVectorsRunsBesideTheBatchOnAnotherThreadWithoutVectors() {
    TextOnly channel = new TextOnly(null, 0);
    try (RecallPipeline p = pipeline(1, f.embedder, channel)) {
      p.recall(question("What does Omar want to learn next?"));
    }
    assertThat(channel.thread.get()).isNotSameAs(Thread.currentThread());
    assertThat(channel.thread.get().getName()).startsWith("lychee-recall-early-");
    assertThat(channel.hadVectors).isFalse();
    assertThat(channel.vectorRead.get()).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not embedded yet");
  }

  @Test
  void withoutThreadsEveryChannelRunsOnTheRecallingThreadWithVectors() {
    TextOnly channel = new TextOnly(null, 0);
    try (RecallPipeline p = pipeline(0, f.embedder, channel)) {
      p.recall(question("What does Omar want to learn next?"));
    }
    assertThat(channel.thread.get()).isSameAs(Thread.currentThread());
    assertThat(channel.hadVectors).isTrue();
    assertThat(channel.vectorRead.get()).isNull();
  }

  @Test
  void aFailingEarlyChannelFailsTheRecallWithItsOwnErrorAndLeavesNoThreadBehind() throws Exception {
    IllegalStateException boom = new IllegalStateException("the text index is gone");
    RecallPipeline p = pipeline(1, f.embedder, new TextOnly(boom, 0));
    assertThatThrownBy(() -> p.recall(question("What does Omar want to learn next?"))).isSameAs(boom);
    // the pool is still usable afterwards
    TextOnly fine = new TextOnly(null, 0);
    try (RecallPipeline q = pipeline(1, f.embedder, fine)) {
      assertThat(q.recall(question("Which XR7 model?")).evidence()).isNotEmpty();
    }
    p.close();
    assertThat(earlyThreadsGone()).isTrue();
  }

  /** The fixture's embedder for documents; every query embedding throws {@code down}. */
  private Embedder failing(RuntimeException down) {
    return new EmbedderDecorator(f.embedder) {
      @Override
      public List<float[]> embedDocuments(List<String> texts) {
        return delegate.embedDocuments(texts);
      }

      @Override
      public float[] embedQuery(String query) {
        throw down;
      }

      @Override
      public List<float[]> embedQueries(List<String> queries) {
        throw down;
      }
    };
  }

  @Test
  void aFailedEmbeddingWaitsForTheEarlyChannelsAndKeepsTheirErrorAsSuppressed() {
    IllegalStateException down = new IllegalStateException("the embedder is down");
    Embedder failing = failing(down);
    IllegalArgumentException alsoBroken = new IllegalArgumentException("and the text index too");
    TextOnly slow = new TextOnly(alsoBroken, 200);
    try (RecallPipeline p = pipeline(1, failing, slow)) {
      assertThatThrownBy(() -> p.recall(question("What does Omar want to learn next?"))).isSameAs(down);
      // the recall returned only after the early channel had ended
      assertThat(slow.finished).isTrue();
      assertThat(down.getSuppressed()).contains(alsoBroken);
    }
  }

  /** An embedder that counts down {@code asked} when it is asked for a vector of {@code text}. */
  private static Embedder signalling(Embedder inner, String text, CountDownLatch asked) {
    return new EmbedderDecorator(inner) {
      @Override
      public List<float[]> embedDocuments(List<String> texts) {
        return delegate.embedDocuments(texts);
      }

      @Override
      public float[] embedQuery(String query) {
        return embedQueries(List.of(query)).get(0);
      }

      @Override
      public List<float[]> embedQueries(List<String> queries) {
        if (queries.contains(text)) {
          asked.countDown();
        }
        return delegate.embedQueries(queries);
      }
    };
  }

  @Test
  void theQuestionIsEmbeddedWhileThePlanIsMade() {
    String q = "What does Omar want to learn next?";
    CountDownLatch asked = new CountDownLatch(1);
    AtomicBoolean embeddingBeforePlan = new AtomicBoolean();
    AtomicReference<Thread> planningThread = new AtomicReference<>();
    RuleBasedPlanner rules = new RuleBasedPlanner();
    QueryPlanner waiting = question -> {
      planningThread.set(Thread.currentThread());
      try {
        // without the embedding ahead, the plan comes first and this waits in vain
        embeddingBeforePlan.set(asked.await(5, TimeUnit.SECONDS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return rules.plan(question);
    };
    List<Evidence> found;
    try (RecallPipeline p = pipeline(1, signalling(f.embedder, q, asked), waiting)) {
      found = p.recall(question(q)).evidence();
    }
    assertThat(embeddingBeforePlan).isTrue();
    assertThat(planningThread.get().getName()).startsWith("lychee-recall-early-");
    try (RecallPipeline sequential = pipeline(0, f.embedder)) {
      assertThat(found).isEqualTo(sequential.recall(question(q)).evidence());
    }
  }

  @Test
  void thePlanIsMadeUnderTheReadsDeadlineOnTheEarlyThread() {
    AtomicReference<Thread> planningThread = new AtomicReference<>();
    AtomicReference<Optional<Duration>> seen = new AtomicReference<>();
    RuleBasedPlanner rules = new RuleBasedPlanner();
    QueryPlanner watching = question -> {
      planningThread.set(Thread.currentThread());
      seen.set(ReadDeadline.remaining());
      return rules.plan(question);
    };
    try (RecallPipeline p = pipeline(1, f.embedder, watching)) {
      ReadDeadline.within(Duration.ofSeconds(30), () -> p.recall(question("Which XR7 model?")));
      assertThat(planningThread.get().getName()).startsWith("lychee-recall-early-");
      // without the deadline carried over, a model planner's call would wait past it (DeadlineChatModel)
      assertThat(seen.get()).as("the deadline the planner sees").isPresent();
      assertThat(seen.get().get()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
      p.recall(question("Which XR7 model?"));
      assertThat(seen.get()).as("outside a read's scope").isEmpty();
    }
    assertThat(ReadDeadline.remaining()).as("the test's thread").isEmpty();
  }

  @Test
  void aFailingPlannerFailsOrFallsBackAsWithoutThreads() {
    LlmUnavailableException unavailable = new LlmUnavailableException("the planner's model is down", null);
    QueryPlanner failing = question -> {
      throw unavailable;
    };
    QueryPlanner broken = question -> {
      throw new IllegalStateException("unparseable plan");
    };
    List<List<Evidence>> fellBack = new ArrayList<>();
    for (int threads : List.of(0, 1)) {
      try (RecallPipeline p = pipeline(threads, f.embedder, failing)) {
        assertThatThrownBy(() -> p.recall(question("Which XR7 model?"))).as("threads " + threads).isSameAs(unavailable);
      }
      try (RecallPipeline p = pipeline(threads, f.embedder, broken)) {
        Recall r = p.recall(question("Which XR7 model?"));
        assertThat(r.plan()).isEqualTo(RecallPlan.singleRoute("Which XR7 model?"));
        fellBack.add(r.evidence());
      }
    }
    assertThat(fellBack.get(0)).isNotEmpty().isEqualTo(fellBack.get(1));
  }

  @Test
  void aFailedPlanIsThrownBeforeAFailedEmbeddingAndLeavesNoThreadBusy() {
    LlmUnavailableException unavailable = new LlmUnavailableException("the planner's model is down", null);
    IllegalStateException down = new IllegalStateException("the embedder is down");
    Embedder failing = failing(down);
    QueryPlanner slowlyFailing = question -> {
      try {
        Thread.sleep(100); // the embedding has failed by now
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw unavailable;
    };
    try (RecallPipeline p = pipeline(1, failing, slowlyFailing)) {
      assertThatThrownBy(() -> p.recall(question("Which XR7 model?"))).isSameAs(unavailable);
      assertThat(unavailable.getSuppressed()).isEmpty();
    }
  }

  /** Waits (up to 10 s) until no early-channel thread is alive; closed pools end their threads at once. */
  private static boolean earlyThreadsGone() throws InterruptedException {
    for (int i = 0; i < 200; i++) {
      boolean alive = Thread.getAllStackTraces().keySet().stream()
          .anyMatch(t -> t.getName().startsWith("lychee-recall-early-") && t.isAlive());
      if (!alive) {
        return true;
      }
      Thread.sleep(50);
    }
    return false;
  }

  /**
   * A store that hands out read points which mark the threads inside them, and notes of every other
   * call whether it ran inside a point of its namespace.
   */
  private static final class PointWatch {
    final List<String> points = new ArrayList<>();
    final List<String> outside = new CopyOnWriteArrayList<>();
    final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<String> inside = new ThreadLocal<>();

    RecordStore around(RecordStore store) {
      return (RecordStore) Proxy.newProxyInstance(RecordStore.class.getClassLoader(),
          new Class<?>[] {RecordStore.class}, (proxy, method, args) -> {
            if (method.getName().equals("readPoint")) {
              String ns = (String) args[0];
              points.add(ns);
              return new ReadPoint() {
                @Override
                public <T> T call(Supplier<T> reads) {
                  String outer = inside.get();
                  inside.set(ns);
                  try {
                    return reads.get();
                  } finally {
                    inside.set(outer);
                  }
                }
              };
            }
            threads.add(Thread.currentThread());
            if (args != null && args.length > 0 && !(args[0] instanceof String ns && ns.equals(inside.get()))) {
              outside.add(method.getName());
            }
            try {
              return method.invoke(store, args);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            }
          });
    }
  }

  @Test
  void everyStoreReadOfARecallRunsInsideOneReadPointOfItsNamespaceOnEveryThread() {
    for (int earlyThreads : List.of(0, 1)) {
      PointWatch watch = new PointWatch();
      try (RecallPipeline p = pipeline(earlyThreads, f.embedder, watch.around(f.store))) {
        for (String q : QUESTIONS) {
          assertThat(p.recall(question(q)).evidence()).isNotEmpty();
        }
      }
      assertThat(watch.points).as("one point per recall").hasSize(QUESTIONS.size()).containsOnly(MemoryFixture.NS);
      assertThat(watch.outside).as("store calls outside the recall's point").isEmpty();
      assertThat(watch.threads).as("threads that read the store")
          .anyMatch(t -> t.getName().startsWith("lychee-recall-early-") == (earlyThreads > 0));
    }
  }
}
