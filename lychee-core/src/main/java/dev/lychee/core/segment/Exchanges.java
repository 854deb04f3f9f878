package dev.lychee.core.segment;

import dev.lychee.api.RawTurn;
import dev.lychee.api.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Forms exchanges from raw turns and splits oversized ones (docs/defaults.md §1.2).
 *
 * <ul>
 *   <li>A new exchange starts at every {@code user} turn once the current exchange holds one;
 *       turns before the first user turn (assistant, system) join the first user turn's exchange
 *       rather than forming one of their own. A call without any user turn yields one exchange.
 *   <li>The text is one {@code "<role>: <content>"} line per turn whose text is not blank, joined
 *       with {@code \n}, where content is {@link RawTurn#content()} (speaker-prefixed). Blank turns
 *       stay in the turn list so that every stored turn lands in a segment.
 *   <li>An exchange over {@code maxTokens} is split at turn boundaries into pieces of at most
 *       {@code maxTokens}; a piece counts the sum of its turns' line estimates.
 *   <li>A single turn over {@code maxTokens} is cut code point by code point into fragments that
 *       stay within {@code maxTokens}; each keeps the turn's index, carries its slice of the text
 *       and is marked {@code forceFinalize}.
 * </ul>
 */
public final class Exchanges {

  /** Put between head and tail of a shortened embedding text. */
  public static final String ELLIPSIS = "\n...\n";

  private Exchanges() {}

  /**
   * Groups {@code turns} (one session, in index order) into exchange drafts.
   *
   * @throws IllegalArgumentException if the turns mix namespaces or sessions
   */
  public static List<ExchangeDraft> form(List<RawTurn> turns, SegmentationConfig config) {
    Objects.requireNonNull(config, "config");
    checkOneSession(turns);
    List<ExchangeDraft> out = new ArrayList<>();
    List<RawTurn> current = new ArrayList<>();
    boolean currentHasUser = false;
    for (RawTurn t : turns) {
      boolean user = t.role() == Role.USER;
      // Turns before the first user turn are a preamble of the first exchange, not one of their own.
      if (user && currentHasUser) {
        emit(current, config.maxTokens(), out);
        current = new ArrayList<>();
        currentHasUser = false;
      }
      current.add(t);
      currentHasUser |= user;
    }
    if (!current.isEmpty()) {
      emit(current, config.maxTokens(), out);
    }
    return out;
  }

  /**
   * Shortens a text for embedding: a text longer than {@code maxChars} code points becomes its
   * first {@code maxChars/2} code points, {@value #ELLIPSIS}, and its last {@code maxChars/2}
   * (first 2000 + last 2000 with the default 4000). Shorter texts are returned unchanged.
   */
  public static String embeddingText(String text, int maxChars) {
    Objects.requireNonNull(text, "text");
    if (maxChars < 2) {
      throw new IllegalArgumentException("maxChars must be >= 2: " + maxChars);
    }
    int length = text.codePointCount(0, text.length());
    if (length <= maxChars) {
      return text;
    }
    int half = maxChars / 2;
    int headEnd = text.offsetByCodePoints(0, half);
    int tailStart = text.offsetByCodePoints(text.length(), -half);
    return text.substring(0, headEnd) + ELLIPSIS + text.substring(tailStart);
  }

  /** The text line of one turn, or null when its text is blank (left out of the exchange text). */
  static String line(RawTurn t) {
    if (t.text().isBlank()) {
      return null;
    }
    return t.role().wireName() + ": " + t.content();
  }

  static String text(List<RawTurn> turns) {
    StringBuilder sb = new StringBuilder();
    for (RawTurn t : turns) {
      String line = line(t);
      if (line != null) {
        if (sb.length() > 0) {
          sb.append('\n');
        }
        sb.append(line);
      }
    }
    return sb.toString();
  }

  private static void emit(List<RawTurn> turns, int maxTokens, List<ExchangeDraft> out) {
    String text = text(turns);
    int tokens = TokenEstimator.estimate(text);
    if (tokens <= maxTokens) {
      out.add(new ExchangeDraft(turns, text, tokens, false));
    } else {
      split(turns, maxTokens, out);
    }
  }

  /** Splits an oversized exchange at turn boundaries; oversized single turns become fragments. */
  private static void split(List<RawTurn> turns, int maxTokens, List<ExchangeDraft> out) {
    List<RawTurn> piece = new ArrayList<>();
    int pieceTokens = 0;
    for (RawTurn t : turns) {
      String line = line(t);
      if (line == null) {
        piece.add(t);
        continue;
      }
      int tokens = TokenEstimator.estimate(line);
      if (tokens > maxTokens) {
        addPiece(piece, pieceTokens, out);
        piece = new ArrayList<>();
        pieceTokens = 0;
        fragments(t, maxTokens, out);
        continue;
      }
      if (pieceTokens > 0 && pieceTokens + tokens > maxTokens) {
        addPiece(piece, pieceTokens, out);
        piece = new ArrayList<>();
        pieceTokens = 0;
      }
      piece.add(t);
      pieceTokens += tokens;
    }
    addPiece(piece, pieceTokens, out);
  }

  private static void addPiece(List<RawTurn> piece, int tokens, List<ExchangeDraft> out) {
    if (!piece.isEmpty()) {
      out.add(new ExchangeDraft(piece, text(piece), Math.max(1, tokens), false));
    }
  }

  /**
   * Cuts one oversized turn into fragments. The budget is counted on the fragment's line with the
   * longest prefix it can get ({@code "<role>: <speaker>: "}), so every fragment's real line stays
   * within {@code maxTokens} whether or not the slice already starts with the speaker.
   */
  private static void fragments(RawTurn t, int maxTokens, List<ExchangeDraft> out) {
    String prefix = t.role().wireName() + ": " + (t.speaker() == null ? "" : t.speaker() + ": ");
    int[] cps = t.text().codePoints().toArray();
    int start = 0;
    TokenEstimator.Counter counter = seeded(prefix);
    for (int i = 0; i < cps.length; i++) {
      if (i > start && counter.estimateWith(cps[i]) > maxTokens) {
        addFragment(t, new String(cps, start, i - start), out);
        start = i;
        counter = seeded(prefix);
      }
      counter.add(cps[i]);
    }
    if (start < cps.length) {
      addFragment(t, new String(cps, start, cps.length - start), out);
    }
  }

  private static TokenEstimator.Counter seeded(String prefix) {
    TokenEstimator.Counter c = new TokenEstimator.Counter();
    c.addAll(prefix);
    return c;
  }

  private static void addFragment(RawTurn t, String slice, List<ExchangeDraft> out) {
    RawTurn fragment = new RawTurn(t.namespace(), t.ref(), t.role(), t.speaker(), slice, t.time());
    String text = t.role().wireName() + ": " + fragment.content();
    out.add(new ExchangeDraft(List.of(fragment), text, TokenEstimator.estimate(text), true));
  }

  private static void checkOneSession(List<RawTurn> turns) {
    Objects.requireNonNull(turns, "turns");
    if (turns.isEmpty()) {
      return;
    }
    RawTurn first = turns.get(0);
    for (RawTurn t : turns) {
      if (!t.namespace().equals(first.namespace()) || !t.session().equals(first.session())) {
        throw new IllegalArgumentException("exchange formation needs the turns of one session; got "
            + first.namespace() + "/" + first.session() + " and " + t.namespace() + "/" + t.session());
      }
    }
  }
}
