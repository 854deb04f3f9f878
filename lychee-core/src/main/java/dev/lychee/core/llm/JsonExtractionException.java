package dev.lychee.core.llm;

import dev.lychee.api.LycheeException;

/**
 * No usable JSON could be found in a model's output. The message says why (empty output, no JSON
 * value, unbalanced brackets, invalid syntax) and quotes the start of the text.
 */
public class JsonExtractionException extends LycheeException {
  public JsonExtractionException(String message) {
    super(message);
  }

  public JsonExtractionException(String message, Throwable cause) {
    super(message, cause);
  }
}
