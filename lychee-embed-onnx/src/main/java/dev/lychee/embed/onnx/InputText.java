package dev.lychee.embed.onnx;

/**
 * Validation and shortening of the texts handed to the model. Package-private: the rules are part
 * of {@link OnnxEmbedder}'s contract, documented there.
 */
final class InputText {
  private InputText() {}

  /**
   * Returns {@code text} stripped of surrounding white space and cut to at most {@code maxChars}
   * characters (never between the two halves of a surrogate pair).
   *
   * @param what names the argument in the error message, e.g. {@code "texts[3]"}
   * @throws IllegalArgumentException when the text is null or blank
   */
  static String prepare(String text, int maxChars, String what) {
    if (text == null) {
      throw new IllegalArgumentException(what + " is null; the embedder needs non-blank text");
    }
    String stripped = text.strip();
    if (stripped.isEmpty()) {
      throw new IllegalArgumentException(what + " is blank; the embedder needs non-blank text");
    }
    if (stripped.length() <= maxChars) {
      return stripped;
    }
    int end = maxChars;
    // Do not leave a lone high surrogate at the end of the cut.
    if (Character.isHighSurrogate(stripped.charAt(end - 1))) {
      end--;
    }
    return stripped.substring(0, end).strip();
  }
}
