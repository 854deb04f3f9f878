package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Candidate;
import dev.lychee.api.DateRange;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.NodeKind;
import dev.lychee.api.Question;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.read.RetrievalConfig;
import dev.lychee.core.read.RouteQueries;
import dev.lychee.core.testing.MemoryFixture;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of the {@link RecallChannel} contract, run against a small stored memory
 * (turns, records, entity, tag and day nodes) in two namespaces: candidates belong to the asked
 * namespace only, name the channel in their provenance, score in [0, 1], come best first without
 * duplicate ids; an empty namespace gives nothing; the channel finds evidence for at least one of
 * the fixture's routes, answers the same inputs the same way and is thread-safe. Contexts are built
 * by {@link RouteQueries}, exactly as the pipeline builds them.
 */
public abstract class BaseRecallChannelTestCase {
  protected static final String NS = MemoryFixture.NS;
  protected static final String OTHER = "other-tenant";
  protected static final LocalDate D1 = LocalDate.of(2023, 5, 8);
  protected static final LocalDate D2 = LocalDate.of(2023, 6, 20);

  /** The channel under test, reading the given store and index. */
  protected abstract RecallChannel newChannel(RecordStore store, VectorIndex vectors);

  protected MemoryFixture memory;
  protected RecallChannel channel;
  private ExecutorService pool;

  @BeforeEach
  void storeMemory() {
    memory = new MemoryFixture();
    fill(memory, "Dana", "Omar", "pottery class", "XR7");
    // the other tenant talks about the same things: a channel that ignores the namespace finds them
    fill(memory.in(OTHER), "Lena", "Igor", "pottery class", "XR7");
    channel = newChannel(memory.store, memory.vectors);
  }

  @AfterEach
  void stopPool() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  private static void fill(MemoryFixture f, String a, String b, String hobby, String model) {
    f.session("s1", D1,
        a + ": I signed up for a " + hobby + " at the community centre.",
        b + ": That sounds relaxing. I have been training for the city marathon.",
        a + ": The instructor uses a Shimpo wheel model " + model + ".");
    f.session("s2", D2,
        b + ": I finished the marathon in under four hours!",
        a + ": Congratulations, that is amazing.");
    MemoryRecord hobbyRecord = f.record("s1", 0, MemoryType.EVENT, a + " signed up for a " + hobby + " on 8 May 2023.",
        List.of(a), D1);
    MemoryRecord race = f.record("s2", 0, MemoryType.EVENT, b + " finished the city marathon in under four hours.",
        List.of(b), D2);
    f.node(NodeKind.ENTITY, a.toLowerCase(java.util.Locale.ROOT), "Entity: " + a + "\nRecord: " + hobbyRecord.text(),
        null, hobbyRecord);
    f.node(NodeKind.TAG, "hobbies", "Tag: hobbies\nRecord: " + hobbyRecord.text(), null, hobbyRecord);
    f.node(NodeKind.TEMPORAL, "day:" + D2, "Time: " + D2, DateRange.day(D2), race);
  }

  /** The fixture's routes, each with the question type it is asked under. */
  protected List<Asked> routes() {
    return List.of(
        new Asked(QuestionType.SINGLE, RecallRoute.simple("r1", "pottery class")),
        new Asked(QuestionType.SINGLE, RecallRoute.simple("r1", "Which XR7 model does the instructor use?")),
        new Asked(QuestionType.TEMPORAL, new RecallRoute("r1", "what happened on 20 June 2023",
            List.of("marathon on 20 June 2023"), List.of(), DateRange.day(D2))),
        new Asked(QuestionType.AGGREGATE, new RecallRoute("r2", "Dana's hobbies",
            List.of("What hobbies does Dana have?", "Dana pottery"), List.of(), null)));
  }

  /** A route asked under a question type. */
  protected record Asked(QuestionType type, RecallRoute route) {}

  /** The context the pipeline would build for one route asked in {@code namespace}. */
  protected RecallContext context(String namespace, Asked asked) {
    RecallPlan plan = new RecallPlan(asked.type(), "conformance", List.of(asked.route()),
        asked.route().temporalFilter(), TokenUsage.ZERO);
    Question q = new Question(namespace, asked.route().queries().get(0), 5, null);
    return RouteQueries.context(q, plan, memory.embedder, RetrievalConfig.defaults().maxVariants());
  }

  private List<Candidate> recall(String namespace, Asked asked) {
    return channel.recall(asked.route(), context(namespace, asked));
  }

  @Test
  void hasAStableNonBlankName() {
    assertThat(channel.name()).isNotBlank().isEqualTo(channel.name());
  }

  @Test
  void candidatesAreWellFormedAndBestFirst() {
    for (Asked a : routes()) {
      List<Candidate> out = recall(NS, a);
      Set<String> ids = new HashSet<>();
      for (int i = 0; i < out.size(); i++) {
        Candidate c = out.get(i);
        assertThat(c.namespace()).as("namespace of %s", c.id()).isEqualTo(NS);
        assertThat(c.score()).as("score of %s", c.id()).isBetween(0.0, 1.0);
        assertThat(c.provenance().channels()).as("provenance of %s", c.id()).contains(channel.name());
        assertThat(ids.add(c.id())).as("duplicate id %s", c.id()).isTrue();
        if (i > 0) {
          assertThat(out.get(i - 1).score()).as("order at %d", i).isGreaterThanOrEqualTo(c.score());
        }
      }
    }
  }

  @Test
  void findsEvidenceForSomeRoute() {
    assertThat(routes()).anySatisfy(a -> assertThat(recall(NS, a)).isNotEmpty());
  }

  @Test
  void neverCrossesNamespaces() {
    for (Asked a : routes()) {
      assertThat(recall(OTHER, a)).allSatisfy(c -> assertThat(c.namespace()).isEqualTo(OTHER));
      assertThat(recall("nobody-here", a)).isEmpty();
    }
  }

  @Test
  void sameInputsGiveTheSameCandidates() {
    for (Asked a : routes()) {
      assertThat(summary(recall(NS, a))).isEqualTo(summary(recall(NS, a)));
    }
  }

  @Test
  void isThreadSafe() throws Exception {
    List<Asked> routes = routes();
    List<List<String>> expected = new ArrayList<>();
    for (Asked a : routes) {
      expected.add(summary(recall(NS, a)));
    }
    pool = Executors.newFixedThreadPool(4);
    List<Future<List<String>>> futures = new ArrayList<>();
    for (int round = 0; round < 4; round++) {
      for (Asked a : routes) {
        futures.add(pool.submit(() -> summary(recall(NS, a))));
      }
    }
    for (int i = 0; i < futures.size(); i++) {
      assertThat(futures.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(expected.get(i % routes.size()));
    }
  }

  private static List<String> summary(List<Candidate> cs) {
    return cs.stream().map(c -> c.id() + "@" + c.score()).toList();
  }
}
