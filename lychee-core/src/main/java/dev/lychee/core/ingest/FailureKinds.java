package dev.lychee.core.ingest;

import dev.lychee.api.EncodingException;
import dev.lychee.api.ProviderException;
import dev.lychee.core.llm.JsonExtractionException;

/**
 * Classifies a failure of one encoding attempt: a short kind that is the same for every segment
 * that failed the same way (so the CLI can print one line per kind), and whether trying again can
 * help.
 */
final class FailureKinds {
  private static final int MAX_KIND_CHARS = 200;

  private FailureKinds() {}

  /** The first provider failure in the cause chain, if any. */
  static ProviderException provider(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ProviderException p) {
        return p;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return null;
  }

  /** A short description of the cause, without segment ids. */
  static String kind(Throwable t) {
    ProviderException p = provider(t);
    if (p != null) {
      return cap(firstLine(p.getMessage()));
    }
    if (t instanceof EncodingException && t.getCause() instanceof JsonExtractionException) {
      return "the model's output was not valid JSON of the expected shape";
    }
    String m = t.getMessage() == null ? "" : firstLine(t.getMessage());
    return cap(t.getClass().getSimpleName() + (m.isEmpty() ? "" : ": " + m.replaceAll("segment \\S+", "segment")));
  }

  /**
   * Whether another attempt may succeed: provider timeouts, refused connections, 408, 429 and 5xx,
   * and output that stayed invalid after the repair retry (models are not deterministic). A
   * request the endpoint refuses as such (400, 401, 403, 404, ...) is not retried.
   */
  static boolean retryable(Throwable t) {
    ProviderException p = provider(t);
    if (p != null) {
      int s = p.status();
      return s < 0 || s == 408 || s == 429 || s >= 500;
    }
    return t instanceof EncodingException || t instanceof java.io.UncheckedIOException;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  private static String cap(String s) {
    return s.length() <= MAX_KIND_CHARS ? s : s.substring(0, MAX_KIND_CHARS) + "...";
  }
}
