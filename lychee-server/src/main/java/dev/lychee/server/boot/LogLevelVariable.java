package dev.lychee.server.boot;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The {@code LYCHEE_LOG_LEVEL} variable of the launchers (the CLI, the runnable jar, the harness),
 * checked before logback reads it. Their logback files set the root level to
 * {@code ${LYCHEE_LOG_LEVEL:-WARN}}, and logback takes a name it does not know ("warning", "verbose",
 * "warn " with a space) for DEBUG, the noisiest level, without a word. A value that is not a level
 * falls back to WARN, the default, with one warning line on stderr; a blank one is the default.
 */
public final class LogLevelVariable {
  /** The variable's name; logback reads a system property of that name before the environment. */
  public static final String NAME = "LYCHEE_LOG_LEVEL";

  /** The names logback takes for a level, in any case. */
  private static final List<String> LEVELS = List.of("trace", "debug", "info", "warn", "error", "off", "all");

  private LogLevelVariable() {}

  /**
   * Makes logback read a level it knows. Call it first in {@code main}, before any logger exists:
   * it sets the system property {@value #NAME} (which logback reads before the environment) when
   * the value needs trimming or names no level, and prints one line to {@code err} for the latter.
   */
  public static void applyBeforeLogging(PrintStream err) {
    String value = System.getProperty(NAME, System.getenv(NAME));
    if (value == null) {
      return;
    }
    String level = value.strip().toLowerCase(Locale.ROOT);
    if (LEVELS.contains(level)) {
      if (!level.equals(value)) {
        System.setProperty(NAME, level);
      }
      return;
    }
    System.setProperty(NAME, "warn");
    if (!value.isBlank()) {
      err.println("lychee: warning: " + NAME + "=" + printable(value)
          + " is not a level (trace, debug, info, warn, error or off); logging at warn");
    }
  }

  /** The value as the user can read it: quoted, control characters escaped, at most 40 characters. */
  private static String printable(String value) {
    StringBuilder sb = new StringBuilder("'");
    value.codePoints().limit(40).forEach(c -> sb.append(Character.isISOControl(c) ? String.format("\\u%04x", c)
        : new String(Character.toChars(c))));
    return sb.append(value.codePointCount(0, value.length()) > 40 ? "...'" : "'").toString();
  }
}
