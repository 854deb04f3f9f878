package dev.lychee.core.read;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.DateRange;
import dev.lychee.api.MemoryType;
import dev.lychee.api.QuestionType;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.Role;
import dev.lychee.api.SourceRole;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.RouteQuery;
import dev.lychee.api.spi.RouteRanking;
import dev.lychee.core.recall.RawTurnChannel;
import dev.lychee.core.score.CandidateMerger;
import dev.lychee.core.score.Scores;
import dev.lychee.core.score.TemporalMatch;
import dev.lychee.core.strategy.StrategyProfile;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Scores one route's candidates: merges the channels' hits by id (§4.5 merge rule), applies the
 * strategy and temporal boosts (§4.6), adds source windows (§4.7), and computes the per-route
 * final score (§4.9) by which the route ranking is sorted.
 */
public final class RouteScorer {
  private final RetrievalConfig config;
  private final SourceWindows windows;

  public RouteScorer(RecordStore store, RetrievalConfig config) {
    this.config = config;
    this.windows = new SourceWindows(store, config);
  }

  /** The route's ranking from the candidate lists its channels returned. */
  public RouteRanking rank(RecallRoute route, Collection<List<Candidate>> channelHits, RecallContext context) {
    CandidateMerger merged = new CandidateMerger();
    channelHits.forEach(merged::addAll);
    QuestionType type = context.plan().type();
    StrategyProfile p = config.strategy(type);
    RouteQuery query = context.query(route);
    DateRange filter = query.dateFilter();

    // One sort, at the end. BY_SCORE is a total order on candidates of distinct ids (score,
    // similarity, id) and a merger holds each id once, so sorting the merged hits and the boosted
    // ones before the final scores, as this did, could not change the final order; the windows sort
    // their anchors themselves (docs/measurements.md §6, round seventeen).
    List<Candidate> boosted = new ArrayList<>();
    for (Candidate c : merged.unordered()) {
      boosted.add(c.withScore(temporalBoost(strategyBoost(c, type, p), c, filter)));
    }
    CandidateMerger withWindows = new CandidateMerger();
    withWindows.addAll(boosted);
    withWindows.addAll(windows.around(boosted, context.namespace(), context.k(), p, query.terms()));

    Collection<Candidate> all = withWindows.unordered();
    List<Candidate> out = new ArrayList<>(all.size());
    Map<String, String> folded = new HashMap<>();
    for (Candidate c : all) {
      out.add(c.withScore(finalScore(c, folded)));
    }
    out.sort(CandidateMerger.BY_SCORE);
    return new RouteRanking(route, out);
  }

  /** §4.6 strategy boosts: raw turns get at least the raw-turn formula, records a type bonus. */
  double strategyBoost(Candidate c, QuestionType type, StrategyProfile p) {
    double field = c.score();
    if (c.kind() == CandidateKind.RAW_TURN) {
      Role role = c.sourceRole() == SourceRole.ASSISTANT ? Role.ASSISTANT : Role.USER;
      return Math.max(field, RawTurnChannel.score(config.weights(), p, c.similarity(), role));
    }
    if (c.kind() != CandidateKind.RECORD) {
      return Scores.clamp(field);
    }
    ScoreBoosts b = config.boosts();
    MemoryType mt = c.memoryType();
    double bonus = switch (type) {
      case PRIOR_ASSISTANT_RESPONSE ->
          c.sourceRole() == SourceRole.ASSISTANT || c.sourceRole() == SourceRole.BOTH ? b.assistantRecord() : 0;
      case PERSONALIZED_ADVICE -> mt == MemoryType.PREFERENCE || mt == MemoryType.CONSTRAINT
          || mt == MemoryType.EVENT || mt == MemoryType.FAILURE_PATTERN ? b.adviceRecord() : 0;
      case TEMPORAL -> c.temporal().isEmpty() ? 0 : b.temporalRecord();
      case AGGREGATE, COMPARISON -> mt == MemoryType.EVENT ? b.eventRecord() : 0;
      default -> 0;
    };
    return Scores.clamp(field + bonus);
  }

  /** §4.6 temporal boost: soft, it adds score and never removes a candidate. */
  double temporalBoost(double field, Candidate c, DateRange filter) {
    return switch (TemporalMatch.of(c, filter)) {
      case EVENT -> Math.min(1, field + config.boosts().temporalSpan());
      case MENTIONED -> Math.min(1, field + config.boosts().sourceTime());
      case NONE -> field;
    };
  }

  /** §4.9 without a reranker: {@code min(1, field·w + bonus)}. */
  static double finalScore(Candidate c) {
    return finalScore(c, new HashMap<>());
  }

  /** The same, with the casefolded queries of one route kept in {@code folded} between candidates. */
  private static double finalScore(Candidate c, Map<String, String> folded) {
    double w = switch (c.kind()) {
      case RECORD, RAW_TURN, WINDOW -> 1.0;
      case OTHER -> 0.95;
    };
    // 0.01 per distinct (casefolded) query, at most 0.03: counting stops at the third
    double bonus = 0.03 * Scores.clamp(c.similarity()) + Math.min(0.03, 0.01 * distinctQueries(c, 3, folded));
    return Math.min(1, c.score() * w + bonus);
  }

  /**
   * How many distinct queries (compared casefolded) reached {@code c}, counted up to {@code cap}:
   * the bonus needs no more, and this runs for every candidate of every route.
   */
  static int distinctQueries(Candidate c, int cap) {
    return distinctQueries(c, cap, new HashMap<>());
  }

  /**
   * The same, folding each query text once per route: a route's candidates were reached by the few
   * variants of its plan, and lower-casing them again for every candidate was a string per query
   * per candidate.
   */
  private static int distinctQueries(Candidate c, int cap, Map<String, String> foldedQueries) {
    String[] seen = new String[cap];
    int n = 0;
    for (String q : c.provenance().queries()) {
      String folded = foldedQueries.computeIfAbsent(q, x -> x.toLowerCase(Locale.ROOT));
      boolean repeated = false;
      for (int i = 0; i < n && !repeated; i++) {
        repeated = seen[i].equals(folded);
      }
      if (!repeated) {
        seen[n++] = folded;
        if (n == cap) {
          break;
        }
      }
    }
    return n;
  }
}
