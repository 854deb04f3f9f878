package dev.lychee.core.select;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.TurnRef;
import dev.lychee.core.answer.EvidenceTokens;
import dev.lychee.core.text.Terms;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Cuts a window (one line per turn it cites) to the contiguous lines that fit a token allowance:
 * it keeps the line sharing the most query terms (the anchor, in practice) and grows around it,
 * towards the neighbour sharing more terms and, on a tie, the later one, because in dialogue the
 * answer tends to follow the matched turn. The cut window cites only the turns it still shows.
 * Stateless.
 */
final class WindowShortener {
  private final EvidenceTokens tokens;

  WindowShortener(EvidenceTokens tokens) {
    this.tokens = tokens;
  }

  /**
   * The longest cut of {@code window} whose item at {@code rank} takes at most {@code maxTokens},
   * or null when it is no window, its lines and turns do not pair up, or not even one line fits.
   */
  Candidate shorten(Candidate window, Set<String> queryTerms, int maxTokens, int rank) {
    if (window.kind() != CandidateKind.WINDOW) {
      return null;
    }
    String[] lines = window.text().split("\n");
    List<TurnRef> turns = window.turns();
    if (lines.length != turns.size() || lines.length == 0) {
      return null; // a line that wraps inside one turn: which turn a line shows is unknown
    }
    int[] score = Arrays.stream(lines)
        .mapToInt(l -> (int) Terms.content(l).stream().filter(queryTerms::contains).count()).toArray();
    int anchor = 0;
    for (int i = 1; i < lines.length; i++) {
      if (score[i] > score[anchor]) {
        anchor = i;
      }
    }
    Candidate best = cut(window, lines, anchor, anchor);
    if (tokens.item(best, rank) > maxTokens) {
      return null;
    }
    int lo = anchor;
    int hi = anchor;
    boolean grown = true;
    while (grown) {
      grown = false;
      boolean canBefore = lo > 0;
      boolean canAfter = hi < lines.length - 1;
      // the later neighbour goes first on a tie; the other side is tried when it does not fit
      int[] order = !canAfter ? new int[] {-1} : !canBefore ? new int[] {1}
          : score[lo - 1] > score[hi + 1] ? new int[] {-1, 1} : new int[] {1, -1};
      for (int side : order) {
        int nlo = side < 0 ? lo - 1 : lo;
        int nhi = side > 0 ? hi + 1 : hi;
        Candidate c = cut(window, lines, nlo, nhi);
        if (tokens.item(c, rank) <= maxTokens) {
          lo = nlo;
          hi = nhi;
          best = c;
          grown = true;
          break;
        }
      }
    }
    return best;
  }

  private static Candidate cut(Candidate w, String[] lines, int lo, int hi) {
    List<TurnRef> turns = w.turns().subList(lo, hi + 1);
    String text = String.join("\n", Arrays.asList(lines).subList(lo, hi + 1));
    int colon = w.id().lastIndexOf(':');
    String id = (colon > 0 ? w.id().substring(0, colon) : w.id()) + ":" + turns.get(0).index() + "-"
        + turns.get(turns.size() - 1).index();
    return new Candidate(id, w.kind(), w.namespace(), text, w.session(), turns, w.mentionedAt(), w.temporal(),
        w.memoryType(), w.sourceRole(), w.entities(), w.tags(), w.score(), w.similarity(), w.provenance());
  }
}
