package dev.lychee.bench.metrics;

import java.text.Normalizer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Lexical answer scores as the LoCoMo and SQuAD-style benchmarks compute them: both texts are
 * lower-cased, stripped of punctuation and of the articles a, an and the, and split on white space;
 * scores compare the resulting token multisets.
 *
 * <p>These scores reward wording, not meaning ("May 7" against "7 May 2023" scores 0.8), which is
 * why the LLM judge is the headline measure and these are reported beside it.
 */
public final class AnswerText {
  private static final Pattern PUNCTUATION = Pattern.compile("[\\p{Punct}\\p{IsPunctuation}]");
  private static final Pattern ARTICLES = Pattern.compile("\\b(a|an|the)\\b");
  private static final Pattern SPACE = Pattern.compile("\\s+");

  private AnswerText() {}

  /** The normalised text: lower case, no accents' combining marks, no punctuation or articles. */
  public static String normalize(String text) {
    if (text == null) {
      return "";
    }
    String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    s = PUNCTUATION.matcher(s).replaceAll(" ");
    s = ARTICLES.matcher(s).replaceAll(" ");
    return SPACE.matcher(s).replaceAll(" ").strip();
  }

  /** The normalised tokens of a text (empty for blank text). */
  public static List<String> tokens(String text) {
    String n = normalize(text);
    return n.isEmpty() ? List.of() : Arrays.asList(n.split(" "));
  }

  /** 1 when the normalised texts are equal, else 0. */
  public static double exactMatch(String prediction, String gold) {
    return normalize(prediction).equals(normalize(gold)) ? 1.0 : 0.0;
  }

  /**
   * Token F1: the harmonic mean of precision (shared tokens over predicted tokens) and recall
   * (shared tokens over gold tokens), shared tokens counted with multiplicity. Two empty texts
   * score 1, one empty text against a non-empty one scores 0.
   */
  public static double f1(String prediction, String gold) {
    List<String> p = tokens(prediction);
    List<String> g = tokens(gold);
    if (p.isEmpty() || g.isEmpty()) {
      return p.isEmpty() && g.isEmpty() ? 1.0 : 0.0;
    }
    int common = overlap(p, g);
    if (common == 0) {
      return 0.0;
    }
    double precision = (double) common / p.size();
    double recall = (double) common / g.size();
    return 2 * precision * recall / (precision + recall);
  }

  /**
   * BLEU-1: clipped unigram precision of the prediction against the gold answer, times the brevity
   * penalty {@code exp(1 - |gold|/|prediction|)} when the prediction is the shorter one.
   */
  public static double bleu1(String prediction, String gold) {
    List<String> p = tokens(prediction);
    List<String> g = tokens(gold);
    if (p.isEmpty() || g.isEmpty()) {
      return p.isEmpty() && g.isEmpty() ? 1.0 : 0.0;
    }
    double precision = (double) overlap(p, g) / p.size();
    double brevity = p.size() >= g.size() ? 1.0 : Math.exp(1.0 - (double) g.size() / p.size());
    return precision * brevity;
  }

  private static int overlap(List<String> a, List<String> b) {
    Map<String, Integer> counts = new HashMap<>();
    for (String t : b) {
      counts.merge(t, 1, Integer::sum);
    }
    int common = 0;
    for (String t : a) {
      Integer c = counts.get(t);
      if (c != null && c > 0) {
        common++;
        counts.put(t, c - 1);
      }
    }
    return common;
  }
}
