package dev.lychee.bench.jmh;

import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.spi.RouteQuery;
import dev.lychee.core.plan.RuleBasedPlanner;
import dev.lychee.core.read.RouteQueries;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What does the "planning + variants" stage of a recall cost outside the embedder? The offline
 * {@link RuleBasedPlanner} and the route queries' texts ({@link RouteQueries#withoutVectors}) for a
 * fixed set of questions written for this bench, one of each kind the planner tells apart (a point
 * in time, a duration, a list, a comparison of two people, a supposition, a date range, a plain
 * fact), eight variants at most per route as the pipeline's default. One operation plans all of them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PlanningBench {
  private static final List<String> QUESTIONS = List.of(
      "When did Speaker go hiking by the river with the beagle?",
      "How long has Speaker been learning to play the violin?",
      "What hobbies has Speaker picked up since moving to the coast?",
      "Which of Alpha and Beta has travelled to more countries?",
      "Would Speaker enjoy a cooking class if a friend invited them?",
      "What did Speaker buy between 3 May 2023 and 20 June 2023?",
      "What is the name of the bakery Speaker opened downtown?",
      "How many times did Alpha and Beta meet at the climbing gym?");

  private final RuleBasedPlanner planner = new RuleBasedPlanner();

  @Benchmark
  public int planAndVariants() {
    int n = 0;
    for (String q : QUESTIONS) {
      Question question = new Question("bench", q, 10, null);
      RecallPlan plan = planner.plan(question);
      List<RouteQuery> queries = RouteQueries.withoutVectors(question, plan, 8);
      n += queries.size();
    }
    return n;
  }
}
