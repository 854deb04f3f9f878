package dev.lychee.bench.metrics;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Answer containment (evaluation.md §6): whether every token of the normalised gold answer is
 * present in the serialised evidence, dates compared as dates. A gold day matches any absolute
 * rendering of that day in the evidence, a gold month any rendering of that month or of a day in
 * it, and a bare year in the gold answer matches the year of any date the evidence shows. An empty
 * gold answer is never contained. Stateless.
 */
public final class AnswerContainment {
  private AnswerContainment() {}

  /** 1 when the gold answer is readable from the evidence, else 0. */
  public static double contained(String goldAnswer, String evidence) {
    DateForms gold = DateForms.of(goldAnswer);
    List<String> goldTokens = AnswerText.tokens(gold.rest());
    if (goldTokens.isEmpty() && gold.days().isEmpty() && gold.months().isEmpty()) {
      return 0;
    }
    DateForms shown = DateForms.of(evidence);
    if (!shown.days().containsAll(gold.days()) || !shown.allMonths().containsAll(gold.months())) {
      return 0;
    }
    Set<String> tokens = new HashSet<>(AnswerText.tokens(shown.rest()));
    tokens.addAll(shown.years());
    return tokens.containsAll(goldTokens) ? 1 : 0;
  }
}
