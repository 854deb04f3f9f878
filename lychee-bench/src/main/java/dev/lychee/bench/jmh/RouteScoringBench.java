package dev.lychee.bench.jmh;

import dev.lychee.api.Candidate;
import dev.lychee.api.Question;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RawTurn;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.Role;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RouteQuery;
import dev.lychee.api.spi.RouteRanking;
import dev.lychee.core.read.RetrievalConfig;
import dev.lychee.core.read.RouteScorer;
import dev.lychee.core.store.InMemoryRecordStore;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What does scoring one route cost (round twenty-one)? {@link RouteScorer#rank} merges the
 * channels' hits by id, boosts them, builds the source windows around the strongest (reading
 * their turns from an in-memory store and trimming long lines to their query-bearing sentences)
 * and sorts by the final score: three channels' lists of {@code hits} candidates each, half of
 * them shared between two channels, 20 sessions of 30 turns whose lines run to several
 * sentences.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RouteScoringBench {
  /** Candidates per channel list. */
  @Param({"100", "400"})
  public int hits;

  /** Turns each record cites: 1 as in one conversation, 20 as in {@code eval speed}'s scale 20. */
  @Param({"1", "20"})
  public int recordTurns;

  private RouteScorer scorer;
  private RecallRoute route;
  private List<List<Candidate>> channelHits;
  private RecallContext context;

  @Setup
  public void setUp() {
    Random random = new Random(21);
    InMemoryRecordStore store = new InMemoryRecordStore();
    for (int s = 1; s <= 20; s++) {
      List<RawTurn> turns = new ArrayList<>();
      for (int t = 0; t < 30; t++) {
        StringBuilder text = new StringBuilder();
        for (int sentence = random.nextInt(6); sentence >= 0; sentence--) {
          for (int w = 5 + random.nextInt(8); w > 0; w--) {
            text.append(BenchData.word(random)).append(' ');
          }
          text.setLength(text.length() - 1);
          text.append(random.nextBoolean() ? ". " : "! ");
        }
        turns.add(new RawTurn("bench", TurnRef.of("D" + s, t), t % 2 == 0 ? Role.USER : Role.ASSISTANT,
            t % 2 == 0 ? "Dana" : "Omar", text.toString().strip(), LocalDateTime.of(2023, 5, 1, 12, 0).plusDays(s)));
      }
      store.appendTurns("bench", "D" + s, turns);
    }
    scorer = new RouteScorer(store, RetrievalConfig.defaults());
    route = new RecallRoute("r1", "when did Dana go hiking by the river",
        List.of("when did Dana go hiking by the river", "Dana hiking river"), List.of(), null);
    channelHits = new ArrayList<>();
    Map<String, Candidate> shared = new LinkedHashMap<>();
    for (int ch = 0; ch < 3; ch++) {
      Map<String, Candidate> byId = new LinkedHashMap<>();
      List<Candidate> previous = new ArrayList<>(shared.values());
      for (int i = 0; i < previous.size() / 2; i++) {
        byId.put(previous.get(i).id(), previous.get(i).withScore(random.nextDouble()));
      }
      int i = ch * 10_000;
      while (byId.size() < hits) {
        Candidate c = BenchData.candidate(random, i++, route.id(), recordTurns);
        byId.putIfAbsent(c.id(), c);
      }
      shared = byId;
      channelHits.add(new ArrayList<>(byId.values()));
    }
    Set<String> terms = new LinkedHashSet<>(List.of("dana", "hiking", "river"));
    RouteQuery query = RouteQuery.withoutVectors(route, route.queries(), null, terms);
    RecallPlan plan = new RecallPlan(QuestionType.SINGLE, "bench", List.of(route), null, TokenUsage.ZERO);
    context = new RecallContext(new Question("bench", route.goal(), 15, null), plan, 15, List.of(query));
  }

  @Benchmark
  public RouteRanking rank() {
    return scorer.rank(route, channelHits, context);
  }
}
