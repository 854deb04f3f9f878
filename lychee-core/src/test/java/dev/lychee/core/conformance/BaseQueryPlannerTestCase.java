package dev.lychee.core.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.spi.QueryPlanner;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Conformance suite of the {@link QueryPlanner} contract: every well-formed question, however odd,
 * gets a plan with at least one route; route ids are unique and every route has a non-blank
 * query; the same question plans the same way; planning is thread-safe.
 */
public abstract class BaseQueryPlannerTestCase {
  protected static final LocalDateTime ASKED = LocalDateTime.of(2023, 9, 1, 10, 0);

  /** A fresh planner. */
  protected abstract QueryPlanner newPlanner();

  protected QueryPlanner planner;
  private ExecutorService pool;

  @BeforeEach
  void createPlanner() {
    planner = newPlanner();
  }

  @AfterEach
  void stopPool() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  /** Questions of every shape a user may ask. */
  protected List<Question> questions() {
    return List.of(
        new Question("ns", "When did Dana visit Rome?", 10, ASKED),
        new Question("ns", "What hobbies does Dana have?", 10, ASKED),
        new Question("ns", "Did Omar run more races in 2022 or in 2023?", 10, ASKED),
        new Question("ns", "What did you recommend for my back pain last time?", 10, ASKED),
        new Question("ns", "What happened last week?", 10, null),
        new Question("ns", "??", 10, null),
        new Question("ns", "Qué libro leyó Dana el verano pasado?", 10, ASKED),
        new Question("ns", "Tell me " + "everything about the garden ".repeat(40), 10, ASKED));
  }

  @Test
  void everyQuestionGetsAWellFormedPlan() {
    for (Question q : questions()) {
      RecallPlan plan = planner.plan(q);
      assertThat(plan).as("plan of '%s'", q.text()).isNotNull();
      assertThat(plan.routes()).as("routes of '%s'", q.text()).isNotEmpty();
      assertThat(plan.routes()).extracting(RecallRoute::id).doesNotHaveDuplicates();
      for (RecallRoute r : plan.routes()) {
        assertThat(r.queries()).isNotEmpty().allSatisfy(s -> assertThat(s).isNotBlank());
      }
      assertThat(plan.usage()).isNotNull();
    }
  }

  @Test
  void theSameQuestionPlansTheSameWay() {
    for (Question q : questions()) {
      assertThat(newPlanner().plan(q)).isEqualTo(planner.plan(q));
    }
  }

  @Test
  void isThreadSafe() throws Exception {
    List<Question> qs = questions();
    List<RecallPlan> expected = qs.stream().map(planner::plan).toList();
    pool = Executors.newFixedThreadPool(4);
    List<Future<RecallPlan>> futures = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      for (Question q : qs) {
        futures.add(pool.submit(() -> planner.plan(q)));
      }
    }
    for (int i = 0; i < futures.size(); i++) {
      assertThat(futures.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(expected.get(i % qs.size()));
    }
  }
}
