package dev.lychee.core.conformance;

import dev.lychee.api.Candidate;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.QuestionType;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RouteRanking;
import dev.lychee.core.testing.Cands;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Hand-built inputs of the stages after recall (fuser, reranker, selector): two routes whose
 * rankings share some ids, candidates mixing records and turns from two sessions.
 */
final class StageInputs {
  static final String QUESTION = "What hobbies does Dana have and when did Omar run the marathon?";
  static final RecallRoute R1 = RecallRoute.simple("r1", "Dana hobbies");
  static final RecallRoute R2 = RecallRoute.simple("r2", "Omar marathon date");

  private StageInputs() {}

  static RecallContext context(int k) {
    RecallPlan plan = new RecallPlan(QuestionType.AGGREGATE, "conformance", List.of(R1, R2), null, TokenUsage.ZERO);
    return RecallContext.withoutQueries(new Question("ns", QUESTION, k, null), plan, k);
  }

  static List<RouteRanking> rankings() {
    List<Candidate> first = List.of(
        Cands.record("rec-pottery", "Dana signed up for a pottery class.", .71, "r1"),
        Cands.turn("s1", 4, "Dana: I have been reading a lot of mystery novels lately.", .66, "r1"),
        Cands.record("rec-novels", "Dana enjoys reading mystery novels.", .60, "r1"),
        Cands.turn("s1", 5, "Omar: Mystery novels are great, I like them too.", .41, "r1"),
        Cands.record("rec-marathon", "Omar finished the city marathon on 20 June 2023.", .30, "r1"));
    List<Candidate> second = List.of(
        Cands.record("rec-marathon", "Omar finished the city marathon on 20 June 2023.", .74, "r2"),
        Cands.turn("s2", 0, "Omar: I finished the race in under four hours!", .69, "r2"),
        Cands.turn("s2", 1, "Dana: Congratulations, that is amazing.", .45, "r2"),
        Cands.record("rec-pottery", "Dana signed up for a pottery class.", .22, "r2"));
    return List.of(new RouteRanking(R1, first), new RouteRanking(R2, second));
  }

  /** Every candidate of {@link #rankings()} once (best version), best score first. */
  static List<Candidate> pool() {
    java.util.Map<String, Candidate> best = new java.util.LinkedHashMap<>();
    for (RouteRanking r : rankings()) {
      for (Candidate c : r.candidates()) {
        best.merge(c.id(), c, (a, b) -> a.score() >= b.score() ? a : b);
      }
    }
    List<Candidate> out = new ArrayList<>(best.values());
    out.sort(Comparator.comparingDouble(Candidate::score).reversed().thenComparing(Candidate::id));
    return out;
  }
}
