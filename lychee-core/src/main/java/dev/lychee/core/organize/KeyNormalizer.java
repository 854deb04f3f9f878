package dev.lychee.core.organize;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The key normalisation of evidence nodes (docs/defaults.md §3.1), so that "Choir Rehearsal",
 * "support-group" and "support_group" share one node:
 * <ol>
 *   <li>lower-case (Java's closest match to Python's casefold) and trim;
 *   <li>each run of whitespace or of {@code - _ : / \ | , ;} and full-width {@code ，；：} becomes one space;
 *   <li>every character that is not a Unicode word character, a CJK ideograph (U+4E00-U+9FFF) or a
 *       space is deleted;
 *   <li>repeated spaces collapse and the ends are trimmed.
 * </ol>
 * An empty result means "no node". Stateless and thread-safe.
 */
public final class KeyNormalizer {

  private static final Pattern SEPARATORS = Pattern.compile("[\\s\\-_:/\\\\|,;，；：]+",
      Pattern.UNICODE_CHARACTER_CLASS);
  private static final Pattern DISALLOWED = Pattern.compile("[^\\w\\u4E00-\\u9FFF ]",
      Pattern.UNICODE_CHARACTER_CLASS);
  private static final Pattern SPACES = Pattern.compile(" {2,}");

  private KeyNormalizer() {}

  /** The normalised key of {@code text}; "" for null or when nothing survives. */
  public static String norm(String text) {
    if (text == null) {
      return "";
    }
    String s = text.toLowerCase(Locale.ROOT).strip();
    s = SEPARATORS.matcher(s).replaceAll(" ");
    s = DISALLOWED.matcher(s).replaceAll("");
    s = SPACES.matcher(s).replaceAll(" ");
    return s.strip();
  }
}
