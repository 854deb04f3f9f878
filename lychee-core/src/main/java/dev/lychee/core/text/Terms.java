package dev.lychee.core.text;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Word-level text handling shared by the planner, the reranker, the selector and the extractive
 * answerer: Unicode word tokens, casefolded, and content terms (tokens that are not function words).
 */
public final class Terms {
  private static final Pattern WORD = Pattern.compile("\\w+", Pattern.UNICODE_CHARACTER_CLASS);

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

  /** Every word token, casefolded, in order of first occurrence. */
  public static Set<String> tokens(String text) {
    Set<String> out = new LinkedHashSet<>();
    if (text == null) {
      return out;
    }
    Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
    while (m.find()) {
      out.add(m.group());
    }
    return out;
  }

  /** Tokens that are not function words, with a crude plural fold ("books" matches "book"). */
  public static Set<String> content(String text) {
    Set<String> out = new LinkedHashSet<>();
    for (String t : tokens(text)) {
      if (!STOP.contains(t) && (t.length() > 1 || Character.isDigit(t.charAt(0)))) {
        out.add(stem(t));
      }
    }
    return out;
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
