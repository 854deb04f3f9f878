package dev.lychee.core.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits text into lower-cased word tokens for lexical search: maximal runs of Unicode letters and
 * digits. Ideographic characters (Han, and the like) become one token each, because those scripts do
 * not separate words with spaces and a whole run would almost never match a query. Everything else
 * (punctuation, quotes, operators, whitespace) only separates tokens, so user syntax can never
 * mean anything here.
 */
public final class TextTokenizer {
  private TextTokenizer() {}

  /** The tokens of {@code text} in order (with repeats); empty for null or blank text. */
  public static List<String> tokens(String text) {
    List<String> out = new ArrayList<>();
    if (text == null || text.isEmpty()) {
      return out;
    }
    String lower = text.toLowerCase(Locale.ROOT);
    StringBuilder word = new StringBuilder();
    int i = 0;
    while (i < lower.length()) {
      int cp = lower.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isIdeographic(cp)) {
        flush(word, out);
        out.add(new String(Character.toChars(cp)));
      } else if (Character.isLetterOrDigit(cp)) {
        word.appendCodePoint(cp);
      } else if (Character.getType(cp) == Character.NON_SPACING_MARK && word.length() > 0) {
        // combining marks belong to the letter before them (e.g. Devanagari vowel signs)
        word.appendCodePoint(cp);
      } else {
        flush(word, out);
      }
    }
    flush(word, out);
    return out;
  }

  private static void flush(StringBuilder word, List<String> out) {
    if (word.length() > 0) {
      out.add(word.toString());
      word.setLength(0);
    }
  }
}
