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
  // Not encode.Sentences: that splitter drops closing quotes and brackets with the boundary (the
  // encoder rewrites its sentences anyway), while a window shows the kept words verbatim.
  private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?…])\\s+(?=\\S)");
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
    String[] sentences = SENTENCE_END.split(line.substring(head.length()));
    if (sentences.length < 3) {
      return line; // too few sentences to leave any out with sense
    }
    List<String> kept = new ArrayList<>();
    boolean gap = false;
    for (int i = 0; i < sentences.length; i++) {
      boolean keep = i == 0 || sentences[i].length() < 12 && i == sentences.length - 1
          || Terms.content(sentences[i]).stream().anyMatch(queryTerms::contains);
      if (keep) {
        if (gap) {
          kept.add(GAP);
        }
        kept.add(sentences[i]);
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
}
