package dev.lychee.core.text;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Finds which of a few given terms occur in a text, in one scan of the text and without a string
 * per token: the reranker asks this of every text of the fused pool, where most tokens are no
 * query term. Two kinds of terms are looked for:
 *
 * <ul>
 *   <li><em>content terms</em> ({@link Terms#content}): term {@code i} is found when some token
 *       {@code t} of the text has {@code Terms.contentTerm(t)} equal to it, which is when {@code t}
 *       is one of the term's few surface forms (itself, a plural in {@code s}, a plural in
 *       {@code ies}), each checked against {@link Terms#contentTerm} when the finder is built;</li>
 *   <li><em>words</em>: found when a token equals one of them exactly.</li>
 * </ul>
 *
 * <p>Tokens are those of {@link Terms#forEachToken} (the same lower-casing and word characters), so
 * a result is exactly what collecting the tokens as strings and testing them would give.
 * Immutable and thread-safe once built.
 */
public final class TermFinder {
  /** What a text holds: the content terms found (bit i for term i) and whether any word was. */
  public record Found(BitSet terms, boolean word) {}

  private static final int WORD = -1;

  private final int termCount;
  private final char[][] forms;
  private final int[] hashes;
  /** The content term a form stands for, or {@link #WORD}. */
  private final int[] targets;
  /** Open-addressed table of form indexes + 1 (0: empty), by the form's String hash. */
  private final int[] table;
  private final int mask;

  private TermFinder(int termCount, List<String> forms, List<Integer> targets) {
    this.termCount = termCount;
    int n = forms.size();
    this.forms = new char[n][];
    this.hashes = new int[n];
    this.targets = new int[n];
    int size = Integer.highestOneBit(Math.max(4, n * 4) - 1) << 1;
    this.table = new int[size];
    this.mask = size - 1;
    for (int i = 0; i < n; i++) {
      this.forms[i] = forms.get(i).toCharArray();
      this.hashes[i] = forms.get(i).hashCode();
      this.targets[i] = targets.get(i);
      int slot = spread(hashes[i]) & mask;
      while (table[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      table[slot] = i + 1;
    }
  }

  /**
   * A finder for {@code contentTerms} (numbered in iteration order) and {@code words}.
   *
   * @param contentTerms terms as {@link Terms#content} gives them; a term that no token can
   *     produce is simply never found
   * @param words tokens looked for as they are ({@link Terms#forEachToken}), for example names
   */
  public static TermFinder of(Collection<String> contentTerms, Collection<String> words) {
    List<String> forms = new ArrayList<>();
    List<Integer> targets = new ArrayList<>();
    int i = 0;
    for (String term : contentTerms) {
      for (String form : surfaceForms(term)) {
        if (term.equals(Terms.contentTerm(form)) && !forms.contains(form)) {
          forms.add(form);
          targets.add(i);
        }
      }
      i++;
    }
    for (String w : words) {
      if (!w.isEmpty()) {
        forms.add(w); // a word may also be a content term's form: both entries are looked at
        targets.add(WORD);
      }
    }
    return new TermFinder(i, forms, targets);
  }

  /** Every token whose {@link Terms#stem} can be {@code term}: the term, + "s", y → "ies". */
  private static List<String> surfaceForms(String term) {
    List<String> out = new ArrayList<>(3);
    if (term.isEmpty()) {
      return out;
    }
    out.add(term);
    out.add(term + "s");
    if (term.endsWith("y")) {
      out.add(term.substring(0, term.length() - 1) + "ies");
    }
    return out;
  }

  /** How many content terms this finder looks for. */
  public int terms() {
    return termCount;
  }

  /** The content terms and words {@code text} holds among its tokens. */
  public Found find(String text) {
    return findInLowerCase(text == null ? null : text.toLowerCase(Locale.ROOT));
  }

  /**
   * The same for a text already lower-cased with {@code toLowerCase(Locale.ROOT)}, for a caller
   * that reads the lower-cased text again.
   */
  public Found findInLowerCase(String s) {
    BitSet found = new BitSet(termCount);
    if (s == null || forms.length == 0) {
      return new Found(found, false);
    }
    boolean word = false;
    int n = s.length();
    int i = 0;
    while (i < n) {
      int cp = s.codePointAt(i);
      if (!Terms.isWordChar(cp)) {
        i += Character.charCount(cp);
        continue;
      }
      int start = i;
      i += Character.charCount(cp);
      while (i < n && Terms.isWordChar(cp = s.codePointAt(i))) {
        i += Character.charCount(cp);
      }
      int h = 0;
      for (int j = start; j < i; j++) {
        h = 31 * h + s.charAt(j);
      }
      for (int slot = spread(h) & mask; table[slot] != 0; slot = (slot + 1) & mask) {
        int f = table[slot] - 1;
        if (hashes[f] == h && same(forms[f], s, start, i)) {
          if (targets[f] == WORD) {
            word = true;
          } else {
            found.set(targets[f]);
          }
        }
      }
    }
    return new Found(found, word);
  }

  private static boolean same(char[] form, String s, int start, int end) {
    if (form.length != end - start) {
      return false;
    }
    for (int k = 0; k < form.length; k++) {
      if (form[k] != s.charAt(start + k)) {
        return false;
      }
    }
    return true;
  }

  private static int spread(int h) {
    return h ^ (h >>> 16);
  }
}
