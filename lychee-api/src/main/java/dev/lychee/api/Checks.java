package dev.lychee.api;

import java.util.Objects;

/**
 * The one place where user-supplied names and texts are validated, so that every entry point and
 * every backend agree on what is accepted.
 *
 * <p>A <b>name</b> (namespace, session) is at most {@value #MAX_NAME_LENGTH} UTF-16 chars, holds
 * no control character (C0/C1 controls including NUL, line and paragraph separators) and no lone
 * surrogate, and has at least one visible character: a name made only of spaces, no-break spaces,
 * zero-width or other format characters, or combining marks is rejected, since two such names look
 * the same to a person. Every store accepts every valid name.
 *
 * <p>A <b>text</b> (turn text, speaker, question) must be well-formed UTF-16: a lone surrogate
 * cannot be stored faithfully by every backend, so it is rejected here rather than altered later.
 * A question is at most {@value #MAX_QUESTION_CHARS} chars: it is planned, embedded and matched
 * term by term, and a longer one is almost certainly a document pasted by mistake.
 */
public final class Checks {
  /** The longest namespace or session name, in UTF-16 chars. */
  public static final int MAX_NAME_LENGTH = 256;

  /** The longest question, in UTF-16 chars. */
  public static final int MAX_QUESTION_CHARS = 16_384;

  private Checks() {}

  /**
   * Validates a namespace or session name.
   *
   * @param what what the value is, for the message ("namespace", "session")
   * @return {@code value}, unchanged
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if the name breaks a rule above
   */
  public static String name(String value, String what) {
    Objects.requireNonNull(value, what);
    if (value.length() > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException(what + " is " + value.length() + " chars long; the limit is "
          + MAX_NAME_LENGTH);
    }
    boolean visible = false;
    for (int i = 0; i < value.length(); ) {
      int cp = value.codePointAt(i);
      if (isControl(cp)) {
        throw new IllegalArgumentException(what + " must not contain control characters (found "
            + String.format("U+%04X", cp) + " at index " + i + ")");
      }
      if (Character.isSurrogate(value.charAt(i)) && Character.charCount(cp) == 1) {
        throw new IllegalArgumentException(what + " has a lone UTF-16 surrogate at index " + i);
      }
      visible |= !isInvisible(cp);
      i += Character.charCount(cp);
    }
    if (!visible) {
      throw new IllegalArgumentException(value.isEmpty() ? what + " must not be blank"
          : what + " must hold a visible character (it has only spaces or invisible characters)");
    }
    return value;
  }

  /**
   * Validates a question's text: not blank, well-formed, at most {@value #MAX_QUESTION_CHARS} chars.
   *
   * @return {@code text}, unchanged
   */
  public static String question(String text) {
    Objects.requireNonNull(text, "question text");
    if (text.isBlank()) {
      throw new IllegalArgumentException("question text must not be blank");
    }
    if (text.length() > MAX_QUESTION_CHARS) {
      throw new IllegalArgumentException("question is " + text.length() + " chars long; the limit is "
          + MAX_QUESTION_CHARS + " (ask about the text, do not paste it as the question)");
    }
    return wellFormed(text, "question text");
  }

  /**
   * Rejects a lone UTF-16 surrogate, which no backend can store faithfully.
   *
   * @return {@code text}, unchanged (null stays null)
   */
  public static String wellFormed(String text, String what) {
    if (text == null) {
      return null;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(what + " has a lone UTF-16 surrogate at index " + i
            + " (not valid Unicode text)");
      }
    }
    return text;
  }

  private static boolean isControl(int cp) {
    int type = Character.getType(cp);
    return type == Character.CONTROL || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
  }

  /** Renders as nothing (or as a plain space) on its own. */
  private static boolean isInvisible(int cp) {
    if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
      return true;
    }
    switch (Character.getType(cp)) {
      case Character.FORMAT, Character.NON_SPACING_MARK, Character.ENCLOSING_MARK:
        return true;
      default:
        // fillers that are letters or symbols by category but show nothing
        return cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0 || cp == 0x2800 || cp == 0x180E;
    }
  }

  // ---- package-private helpers of this package's records ----

  static String nonBlank(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
    return value;
  }

  static String orEmpty(String value) {
    return value == null ? "" : value;
  }
}
