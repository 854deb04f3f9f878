package dev.lychee.core.read;

import dev.lychee.core.text.Terms;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Keyword trimming of one window line (§4.7): a long {@code "<speaker>: <text>"} line keeps its
 * first sentence, which sets the scene, every sentence holding a query term, and a closing
 * sentence under 12 characters (a "Haha!" costs less than the gap mark would say); what is left
 * out shows as {@code …}. The line still cites its whole turn: what it shows is the part of the turn
 * that bears on the question, the way a record is the part of a turn worth keeping. Stateless.
 */
final class LineTrimmer {
  private static final String GAP = "…";

  private LineTrimmer() {}

  /**
   * The line itself when it is at most {@code maxChars} long, {@code maxChars} is 0 or no query
   * term is known; else its trimmed form.
   */
  static String trim(String line, Set<String> queryTerms, int maxChars) {
    if (maxChars <= 0 || line.length() <= maxChars || queryTerms.isEmpty()) {
      return line;
    }
    int colon = line.indexOf(": ");
    String head = colon > 0 && colon < 40 ? line.substring(0, colon + 2) : "";
    List<String> sentences = sentences(line.substring(head.length()));
    if (sentences.size() < 3) {
      return line; // too few sentences to leave any out with sense
    }
    List<String> kept = new ArrayList<>();
    boolean gap = false;
    for (int i = 0; i < sentences.size(); i++) {
      String sentence = sentences.get(i);
      boolean keep = i == 0 || sentence.length() < 12 && i == sentences.size() - 1
          || Terms.holdsContentTerm(sentence, queryTerms);
      if (keep) {
        if (gap) {
          kept.add(GAP);
        }
        kept.add(sentence);
        gap = false;
      } else {
        gap = true;
      }
    }
    if (gap) {
      kept.add(GAP);
    }
    return head + String.join(" ", kept);
  }

  /**
   * The sentences of {@code text}: it is cut at every run of whitespace ({@code \s}: space, tab,
   * line feed, vertical tab, form feed, carriage return) that follows a {@code .}, {@code !},
   * {@code ?} or {@code …} and precedes a non-space character, and the run is dropped; the pieces
   * between are kept verbatim. The same pieces as {@code text.split("(?<=[.!?…])\\s+(?=\\S)")}
   * (the pattern this replaced), found by one scan of the characters: the look-behind pattern was
   * half of the source windows' time at scale 20 (docs/measurements.md §6, round twenty-one).
   * Not encode.Sentences: that splitter drops closing quotes and brackets with the boundary (the
   * encoder rewrites its sentences anyway), while a window shows the kept words verbatim.
   */
  static List<String> sentences(String text) {
    List<String> out = new ArrayList<>();
    int n = text.length();
    int start = 0;
    for (int i = 1; i < n; i++) {
      if (isSpace(text.charAt(i)) && endsSentence(text.charAt(i - 1))) {
        int next = i;
        while (next < n && isSpace(text.charAt(next))) {
          next++;
        }
        if (next == n) {
          break; // trailing whitespace: no sentence follows it
        }
        out.add(text.substring(start, i));
        start = next;
        i = next;
      }
    }
    out.add(text.substring(start));
    return out;
  }

  /** {@code \s} without {@link Pattern#UNICODE_CHARACTER_CLASS}. */
  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
  }

  private static boolean endsSentence(char c) {
    return c == '.' || c == '!' || c == '?' || c == '…';
  }
}
