package dev.lychee.core.strategy;

import dev.lychee.api.QuestionType;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * One {@link StrategyProfile} per question type, every type present. Immutable; the defaults are
 * the profiles of docs/defaults.md §4.3 (aggregate questions with the values that take effect).
 */
public final class Strategies {
  private final Map<QuestionType, StrategyProfile> byType;

  private Strategies(Map<QuestionType, StrategyProfile> byType) {
    EnumMap<QuestionType, StrategyProfile> copy = new EnumMap<>(QuestionType.class);
    copy.putAll(byType);
    for (QuestionType t : QuestionType.values()) {
      if (!copy.containsKey(t)) {
        throw new IllegalArgumentException("Strategies: no profile for question type " + t);
      }
    }
    this.byType = Map.copyOf(copy);
  }

  /** The reference profiles. */
  public static Strategies defaults() {
    EnumMap<QuestionType, StrategyProfile> m = new EnumMap<>(QuestionType.class);
    StrategyProfile single = StrategyProfile.builder().build();
    m.put(QuestionType.SINGLE, single);
    m.put(QuestionType.OTHER, single);
    m.put(QuestionType.AGGREGATE, single.toBuilder().nodeMultiplier(1.55).recordMultiplier(1.45)
        .minEpisodeRatio(.70).sourceAnchors(40).build());
    m.put(QuestionType.TEMPORAL, single.toBuilder().nodeMultiplier(1.35).recordMultiplier(1.30)
        .turnMultiplier(1.45).episodeRatio(.42).minEpisodeRatio(.64).sourceWindow(2).sourceAnchors(28)
        .sourceMaxChars(3600).build());
    m.put(QuestionType.COMPARISON, single.toBuilder().nodeMultiplier(1.35).recordMultiplier(1.30)
        .turnMultiplier(1.30).minEpisodeRatio(.66).sourceWindow(2).sourceAnchors(28).sourceMaxChars(3600)
        .build());
    m.put(QuestionType.PERSONALIZED_ADVICE, single.toBuilder().nodeMultiplier(1.25).recordMultiplier(1.20)
        .turnMultiplier(1.80).rawScoreMultiplier(1.05).assistantBonus(.04).userBonus(.08).episodeRatio(.48)
        .minEpisodeRatio(.62).sourceWindow(3).sourceAnchors(28).sourceMergeGap(2).sourceMaxChars(5000).build());
    m.put(QuestionType.PRIOR_ASSISTANT_RESPONSE, single.toBuilder().nodeMultiplier(.95).recordMultiplier(.95)
        .turnMultiplier(3.0).rawScoreMultiplier(1.22).assistantBonus(.18).userBonus(.04).episodeRatio(.62)
        .minEpisodeRatio(.52).sourceWindow(4).sourceAnchors(32).sourceMergeGap(2).sourceMaxChars(7000).build());
    return new Strategies(m);
  }

  /** The profile of a question type ({@code null} reads as single-fact). */
  public StrategyProfile of(QuestionType type) {
    return byType.get(type == null ? QuestionType.SINGLE : type);
  }

  /** These profiles with one replaced. */
  public Strategies with(QuestionType type, StrategyProfile profile) {
    EnumMap<QuestionType, StrategyProfile> m = new EnumMap<>(byType);
    m.put(Objects.requireNonNull(type, "type"), Objects.requireNonNull(profile, "profile"));
    return new Strategies(m);
  }

  /** Every profile, by type. */
  public Map<QuestionType, StrategyProfile> asMap() {
    return byType;
  }

  @Override
  public String toString() {
    return "Strategies" + byType;
  }
}
