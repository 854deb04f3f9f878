package dev.lychee.core.text;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Word-level text handling shared by the planner, the reranker, the selector and the extractive
 * answerer: Unicode word tokens, casefolded, and content terms (tokens that are not function words).
 */
public final class Terms {
  /** The general categories besides letters that {@code \w} accepts, as a bit set by type. */
  private static final int WORD_TYPES = (1 << Character.NON_SPACING_MARK) | (1 << Character.ENCLOSING_MARK)
      | (1 << Character.COMBINING_SPACING_MARK) | (1 << Character.DECIMAL_DIGIT_NUMBER)
      | (1 << Character.CONNECTOR_PUNCTUATION);

  /** English function words and question words; they carry no topic. */
  public static final Set<String> STOP = Set.of(
      "a", "an", "the", "and", "or", "but", "if", "of", "to", "in", "on", "at", "by", "for", "with",
      "from", "into", "about", "as", "is", "are", "was", "were", "be", "been", "being", "am", "do",
      "does", "did", "done", "doing", "have", "has", "had", "having", "what", "which", "who", "whom",
      "whose", "when", "where", "why", "how", "that", "this", "these", "those", "there", "their",
      "they", "them", "he", "him", "his", "she", "her", "hers", "it", "its", "i", "me", "my", "we",
      "us", "our", "you", "your", "yours", "so", "than", "then", "too", "very", "can", "could",
      "would", "should", "will", "shall", "may", "might", "must", "not", "no", "any", "some", "all",
      "both", "each", "other", "also", "just", "up", "out", "over", "after", "before", "during",
      "s", "t", "d", "ll", "re", "ve", "m", "kind", "kinds", "type", "types", "sort", "thing",
      "things", "like", "likely", "get", "got");

  private Terms() {}

  /**
   * Every word token, casefolded, in order of first occurrence: the maximal runs of Unicode word
   * characters ({@code \w} under {@link Pattern#UNICODE_CHARACTER_CLASS}) of the lower-cased
   * text. Recall tokenises every candidate of its pool, so the runs are found by a plain scan of
   * code points rather than by a regular-expression matcher.
   */
  public static Set<String> tokens(String text) {
    Set<String> out = new LinkedHashSet<>();
    forEachToken(text, out::add);
    return out;
  }

  /**
   * Hands every word token of {@link #tokens} to {@code action}, repeats included, without
   * collecting them: for a caller that only looks for a few words in a long text.
   */
  public static void forEachToken(String text, Consumer<String> action) {
    anyToken(text, t -> {
      action.accept(t);
      return false;
    });
  }

  /**
   * Whether one of the content terms of {@code text} ({@link #content}) is in {@code terms}: the
   * same answer as {@code content(text).stream().anyMatch(terms::contains)}, without the set, and
   * stopping at the first term found. Window lines are trimmed with it sentence by sentence on
   * every route of a recall (docs/measurements.md §6, round twenty-one).
   */
  public static boolean holdsContentTerm(String text, Set<String> terms) {
    return anyToken(text, t -> {
      String term = contentTerm(t);
      return term != null && terms.contains(term);
    });
  }

  /**
   * Tests the word tokens of {@link #tokens}, repeats included, in text order, until one passes;
   * whether one did.
   */
  private static boolean anyToken(String text, Predicate<String> test) {
    if (text == null) {
      return false;
    }
    String s = text.toLowerCase(Locale.ROOT);
    int n = s.length();
    int i = 0;
    while (i < n) {
      int cp = s.codePointAt(i);
      if (!isWordChar(cp)) {
        i += Character.charCount(cp);
        continue;
      }
      int start = i;
      i += Character.charCount(cp);
      while (i < n && isWordChar(cp = s.codePointAt(i))) {
        i += Character.charCount(cp);
      }
      if (test.test(s.substring(start, i))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a code point is a word character as {@code \w} reads it under
   * {@link Pattern#UNICODE_CHARACTER_CLASS}: alphabetic, a mark, a decimal digit, connector
   * punctuation or a join control.
   */
  static boolean isWordChar(int cp) {
    if (cp < 0x80) {
      return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9') || cp == '_';
    }
    return Character.isAlphabetic(cp) || ((WORD_TYPES >> Character.getType(cp)) & 1) != 0
        || cp == 0x200C || cp == 0x200D;
  }

  /**
   * Whether {@code token} is one of the {@link #tokens} of a text, given that text already
   * lower-cased ({@code Locale.ROOT}, as {@link #tokens} does): the same answer as {@code
   * tokens(text).contains(token)}, without a set or a string per token. A token is a maximal run of
   * word characters, so {@code token} must be a whole {@link #isWord word} found with no word
   * character on either side.
   */
  public static boolean isTokenOfLowerCase(String lowered, String token) {
    if (lowered == null || !isWord(token)) {
      return false;
    }
    int len = token.length();
    for (int p = lowered.indexOf(token); p >= 0; p = lowered.indexOf(token, p + 1)) {
      boolean startsRun = p == 0 || !isWordChar(lowered.codePointBefore(p));
      boolean endsRun = p + len == lowered.length() || !isWordChar(lowered.codePointAt(p + len));
      if (startsRun && endsRun) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code s} is one whole token: non-empty and made of word characters only. */
  public static boolean isWord(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (!isWordChar(cp)) {
        return false;
      }
      i += Character.charCount(cp);
    }
    return true;
  }

  /** Tokens that are not function words, with a crude plural fold ("books" matches "book"). */
  public static Set<String> content(String text) {
    return content(tokens(text));
  }

  /**
   * The content terms among already computed {@link #tokens}: for a caller that needs both sets
   * of one text and should not tokenise it twice.
   */
  public static Set<String> content(Set<String> tokens) {
    Set<String> out = new LinkedHashSet<>();
    for (String t : tokens) {
      String term = contentTerm(t);
      if (term != null) {
        out.add(term);
      }
    }
    return out;
  }

  /** The content term a token stands for ({@link #content}), or null for a function word or a lone letter. */
  public static String contentTerm(String token) {
    return !STOP.contains(token) && (token.length() > 1 || Character.isDigit(token.charAt(0))) ? stem(token) : null;
  }

  /** A light suffix fold so that simple inflections meet. */
  public static String stem(String t) {
    if (t.length() > 4 && t.endsWith("ies")) {
      return t.substring(0, t.length() - 3) + "y";
    }
    if (t.length() > 3 && t.endsWith("s") && !t.endsWith("ss")) {
      return t.substring(0, t.length() - 1);
    }
    return t;
  }

  /** Jaccard index; 0 when either set is empty. */
  public static double jaccard(Set<String> a, Set<String> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    int inter = 0;
    Set<String> small = a.size() <= b.size() ? a : b;
    Set<String> large = small == a ? b : a;
    for (String s : small) {
      if (large.contains(s)) {
        inter++;
      }
    }
    return (double) inter / (a.size() + b.size() - inter);
  }
}
