package dev.lychee.core.plan;

import dev.lychee.core.text.Terms;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Focused query variants of a question, without an LLM: a declarative form without the question
 * word and auxiliary, the content words, and the key phrases (runs of content words), each kept
 * with the named people so that no query can drift to the wrong speaker.
 */
final class QuestionQueries {
  private static final Pattern LEAD = Pattern.compile(
      "^(?:(?:when|what|which|who|whom|whose|where|why|how)(?:\\s+(?:many|much|long|often|kind of|type of|sort of))?\\s+)?"
          + "(?:(?:\\w+\\s+)?(?:did|does|do|is|are|was|were|has|have|had|will|would|can|could|should|might)\\s+)?",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'&-]*");
  private static final Pattern NAME = Pattern.compile("\\b(\\p{Lu}[\\p{Ll}]+(?:'s)?)\\b");
  /*
   * The fixed patterns of the rewrites below, compiled once: String.replaceAll compiles its pattern
   * on every call, and planning called it for every word of the question and every phrase, about
   * forty compilations per question (docs/measurements.md §6, round seventeen). The results are
   * those of replaceAll, which is defined as exactly this.
   */
  private static final Pattern POSSESSIVE_END = Pattern.compile("'s$");
  private static final Pattern END_PUNCTUATION = Pattern.compile("[?!.]+$");
  private static final Pattern JOINERS = Pattern.compile("\\s+(and|or|,)\\s+(and|or|,)?\\s*");
  private static final Pattern SPACE_RUNS = Pattern.compile("\\s{2,}");
  private static final Set<String> NOT_NAMES = Set.of("january", "february", "march", "april", "may", "june",
      "july", "august", "september", "october", "november", "december", "monday", "tuesday", "wednesday",
      "thursday", "friday", "saturday", "sunday");

  private QuestionQueries() {}

  /** Capitalised words that look like names (not sentence-initial function words, not months). */
  static List<String> names(String question) {
    Set<String> out = new LinkedHashSet<>();
    Matcher m = NAME.matcher(question);
    while (m.find()) {
      String n = POSSESSIVE_END.matcher(m.group(1)).replaceAll("");
      String low = n.toLowerCase(Locale.ROOT);
      if (!Terms.STOP.contains(low) && !NOT_NAMES.contains(low)) {
        out.add(n);
      }
    }
    return List.copyOf(out);
  }

  /** The question without its question word and auxiliary, and without the question mark. */
  static String declarative(String question) {
    String q = END_PUNCTUATION.matcher(question.strip()).replaceAll("").strip();
    String rest = LEAD.matcher(q).replaceFirst("").strip();
    return rest.isEmpty() ? q : rest;
  }

  /** Runs of consecutive content words, at least one word each, in order. */
  static List<String> phrases(String text) {
    List<String> out = new ArrayList<>();
    List<String> run = new ArrayList<>();
    Matcher m = WORD.matcher(text);
    while (m.find()) {
      String w = m.group();
      String low = POSSESSIVE_END.matcher(w.toLowerCase(Locale.ROOT)).replaceAll("");
      if (Terms.STOP.contains(low)) {
        if (!run.isEmpty()) {
          out.add(String.join(" ", run));
          run.clear();
        }
      } else {
        run.add(w);
      }
    }
    if (!run.isEmpty()) {
      out.add(String.join(" ", run));
    }
    return out;
  }

  /** The content words of the text, in order, joined by spaces. */
  static String contentWords(String text) {
    return String.join(" ", phrases(text));
  }

  /** {@code query} with every one of {@code names} it lacks put in front. */
  static String withNames(String query, List<String> names) {
    String low = query.toLowerCase(Locale.ROOT);
    StringBuilder prefix = new StringBuilder();
    for (String n : names) {
      if (!low.contains(n.toLowerCase(Locale.ROOT))) {
        prefix.append(n).append(' ');
      }
    }
    return (prefix + query).strip();
  }

  /** {@code text} without the words of {@code drop} (case-insensitive). */
  static String without(String text, List<String> drop) {
    String out = text;
    for (String d : drop) {
      out = out.replaceAll("(?i)\\b" + Pattern.quote(d) + "('s)?\\b", " ");
    }
    return SPACE_RUNS.matcher(JOINERS.matcher(out).replaceAll(" ")).replaceAll(" ").strip();
  }
}
