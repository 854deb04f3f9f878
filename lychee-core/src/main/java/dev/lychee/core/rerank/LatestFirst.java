package dev.lychee.core.rerank;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.core.text.Terms;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts the latest evidence first when a question asks about the present (issue 20.3, docs/defaults.md
 * §4.16). Records are append-only, so a fact that changed (a new employer, a new rent, a moved date)
 * is held by an old and a new piece of evidence that read much alike; only the time they were said
 * tells them apart, and nothing else in recall looks at it.
 *
 * <p>The rule, deterministic and without an LLM: when {@link #isPresent} holds, the <em>anchor</em>
 * is the best of the first {@link LatestFirstConfig#head} candidates that is about the subject (a
 * person the question names speaks one of its lines; any candidate when it names nobody who speaks).
 * Its <em>group</em> is the anchor and every later head candidate about the subject that scores at
 * most {@link LatestFirstConfig#scoreGap} below it and states something about the same attribute:
 * one of its statements (a record or a turn is one; a source window has one per line) holds at
 * least as many of the question's attribute words (its content words less the names of people and
 * the tense words) as the anchor's best statement, or more than half of those the anchor's holds,
 * or names a place, a company or a person other than the subject that the anchor's statement names
 * too. Of the group, the one said last (the later conversation date; in one session the later turn)
 * takes the group's first place and the others follow in their order, each taking the score of the
 * place it lands on. Nothing leaves the list and nothing outside the group moves, so the old value
 * stays close behind for a question about what it was before; questions that do
 * not ask about the present keep their order. Stateless and thread-safe.
 */
public final class LatestFirst {
  private final LatestFirstConfig config;
  /** Content terms of the present and past words: they date a question, they are not its topic. */
  private final Set<String> tenseWordTerms;

  public LatestFirst(LatestFirstConfig config) {
    this.config = java.util.Objects.requireNonNull(config, "config");
    Set<String> tense = new LinkedHashSet<>(contentTerms(config.presentWords()));
    tense.addAll(contentTerms(config.pastWords()));
    this.tenseWordTerms = Set.copyOf(tense);
  }

  /** The content terms of the words of some phrases, fixed by the settings, so worked out once. */
  private static Set<String> contentTerms(Set<String> phrases) {
    Set<String> out = new LinkedHashSet<>();
    for (String p : phrases) {
      for (String t : p.split(" ")) {
        String term = Terms.contentTerm(t.toLowerCase(Locale.ROOT));
        if (term != null) {
          out.add(term);
        }
      }
    }
    return Set.copyOf(out);
  }

  /** The question's tokens, as the word lists are written (lower case). */
  private static List<String> tokens(String question) {
    List<String> tokens = new ArrayList<>();
    Terms.forEachToken(question, tokens::add);
    return tokens;
  }

  /** Tokens space-joined and space-padded, so a phrase matches as {@code " p "}. */
  private static String padded(List<String> tokens) {
    return " " + String.join(" ", tokens) + " ";
  }

  /** The settings. */
  public LatestFirstConfig config() {
    return config;
  }

  /**
   * The candidates, best first, with the latest of the leading group moved to its front when the
   * question asks about the present; the same list otherwise.
   */
  public List<Candidate> apply(List<Candidate> ranked, RecallContext context) {
    if (!config.enabled() || ranked.size() < 2
        || !isPresent(context.question().text(), context.plan().temporalFilter() != null)) {
      return ranked;
    }
    String question = context.question().text();
    int head = Math.min(config.head(), ranked.size());
    Set<String> names = subject(FeatureReranker.namedPeople(question), ranked.subList(0, head));
    Set<String> attribute = attributeTerms(question, names);
    int anchor = -1;
    for (int i = 0; i < head && anchor < 0; i++) {
      if (aboutSubject(names, ranked.get(i))) {
        anchor = i;
      }
    }
    if (anchor < 0) {
      return ranked;
    }
    Statement a = Statement.best(ranked.get(anchor), attribute, names);
    List<Integer> group = new ArrayList<>();
    group.add(anchor);
    int latest = anchor;
    double floor = ranked.get(anchor).score() - config.scoreGap();
    for (int i = anchor + 1; i < head; i++) {
      Candidate c = ranked.get(i);
      if (c.score() < floor || !aboutSubject(names, c) || !a.sameAttribute(c, attribute, names)) {
        continue;
      }
      group.add(i);
      if (saidLater(c, ranked.get(latest))) {
        latest = i;
      }
    }
    if (latest == anchor) {
      return ranked;
    }
    List<Candidate> order = new ArrayList<>(group.size());
    order.add(ranked.get(latest));
    for (int i : group) {
      if (i != latest) {
        order.add(ranked.get(i));
      }
    }
    List<Candidate> out = new ArrayList<>(ranked);
    for (int j = 0; j < group.size(); j++) {
      int place = group.get(j);
      out.set(place, order.get(j).withScore(ranked.get(place).score()));
    }
    return out;
  }

  /**
   * Whether a question asks about the present: it holds a present word or phrase; or, with the
   * tense reading on, no date filter was planned ({@code dated}), it holds no past word, and its
   * first finite verb is a present one (a contracted "'s" after a question word counts as "is").
   */
  public boolean isPresent(String question, boolean dated) {
    List<String> tokens = tokens(question);
    String padded = padded(tokens);
    if (holdsAny(padded, config.presentWords())) {
      return true;
    }
    if (!config.presentTense() || dated || holdsAny(padded, config.pastWords())) {
      return false;
    }
    for (int i = 0; i < tokens.size(); i++) {
      String t = tokens.get(i);
      if (config.otherVerbs().contains(t)) {
        return false;
      }
      if (config.presentVerbs().contains(t)
          || (t.equals("s") && i > 0 && QUESTION_WORDS.contains(tokens.get(i - 1)))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The content terms of the present words and phrases the question holds ("now", "days" of
   * "these days"): they date the question and say nothing about its topic, so the reranker does
   * not count them as query terms (a "now" in an unrelated turn is no match). Empty when the rule
   * is off.
   */
  public Set<String> tenseTerms(String question) {
    if (!config.enabled()) {
      return Set.of();
    }
    String padded = padded(tokens(question));
    Set<String> out = new LinkedHashSet<>();
    for (String p : config.presentWords()) {
      if (padded.contains(" " + p + " ")) {
        out.addAll(contentTerms(Set.of(p)));
      }
    }
    return out;
  }

  private static final Set<String> QUESTION_WORDS = Set.of("what", "where", "who", "when", "how", "which", "that");

  private static boolean holdsAny(String paddedTokens, Set<String> phrases) {
    for (String p : phrases) {
      if (paddedTokens.contains(" " + p + " ")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The capitalised words of the question that name a person of the conversation: one that speaks a
   * line of a head candidate ({@code "<name>:"}). The others (a city, a company, also when a record
   * lists them as entities) are part of what is asked about, not whom. When none speaks, the named
   * words a head record lists as entities.
   */
  static Set<String> subject(Set<String> named, List<Candidate> head) {
    Set<String> speakers = new LinkedHashSet<>();
    Set<String> entities = new LinkedHashSet<>();
    for (String n : named) {
      for (Candidate c : head) {
        if (speaks(n, c)) {
          speakers.add(n);
        } else if (c.entities().stream().anyMatch(e -> Terms.tokens(e).contains(n))) {
          entities.add(n);
        }
      }
    }
    return speakers.isEmpty() ? entities : speakers;
  }

  private static boolean speaks(String name, Candidate c) {
    String text = c.text().toLowerCase(Locale.ROOT);
    return text.startsWith(name + ":") || text.contains("\n" + name + ":");
  }

  /** The question's content terms less the names and the tense words: what it asks about. */
  Set<String> attributeTerms(String question, Set<String> names) {
    Set<String> out = new LinkedHashSet<>(Terms.content(question));
    names.forEach(n -> out.remove(Terms.stem(n)));
    out.removeAll(tenseWordTerms);
    return out;
  }

  /**
   * What one statement of a candidate says about the question's attribute: the attribute words it
   * holds and the names it mentions besides the subject's. A record or a turn is one statement; a
   * source window is read line by line (one turn each), since its lines may be about other things.
   */
  record Statement(Set<String> terms, Set<String> names) {
    /** The candidate's statement holding the most attribute words (the first on a tie). */
    static Statement best(Candidate c, Set<String> attribute, Set<String> subject) {
      Statement best = null;
      for (String line : lines(c)) {
        Statement s = of(line, attribute, subject);
        if (best == null || s.terms.size() > best.terms.size()) {
          best = s;
        }
      }
      return best;
    }

    static Statement of(String line, Set<String> attribute, Set<String> subject) {
      Set<String> terms = new LinkedHashSet<>();
      Terms.forEachToken(line, t -> {
        String term = Terms.contentTerm(t);
        if (term != null && attribute.contains(term)) {
          terms.add(term);
        }
      });
      return new Statement(terms, properNames(line, subject));
    }

    /**
     * Whether a line of {@code c} is about the same attribute as this statement: it holds at least
     * as many of the question's attribute words as this one (and one at least), or more than half of
     * this one's, or names someone or something this one names (a place, a company, a person other
     * than the subject).
     */
    boolean sameAttribute(Candidate c, Set<String> attribute, Set<String> subject) {
      int need = terms.size() / 2 + 1; // more than half
      for (String line : lines(c)) {
        Statement s = of(line, attribute, subject);
        int shared = 0;
        for (String t : s.terms) {
          if (terms.contains(t)) {
            shared++;
          }
        }
        if ((!terms.isEmpty() && (shared >= need || s.terms.size() >= terms.size()))
            || s.names.stream().anyMatch(names::contains)) {
          return true;
        }
      }
      return false;
    }
  }

  private static List<String> lines(Candidate c) {
    return c.kind() == CandidateKind.WINDOW ? List.of(c.text().split("\n")) : List.of(c.text());
  }

  private static final Pattern PROPER = Pattern.compile("\\p{Lu}[\\p{L}\\p{N}'-]*");
  private static final Set<String> CALENDAR = Set.of("january", "february", "march", "april", "may", "june", "july",
      "august", "september", "october", "november", "december", "monday", "tuesday", "wednesday", "thursday",
      "friday", "saturday", "sunday");

  /**
   * Capitalised words that are not where a sentence or a speaker's line starts, less the subject's
   * names, function words and calendar words (a changed date is what differs, not what is shared).
   */
  static Set<String> properNames(String line, Set<String> subject) {
    Set<String> out = new LinkedHashSet<>();
    Matcher m = PROPER.matcher(line);
    while (m.find()) {
      int i = m.start() - 1;
      while (i >= 0 && Character.isWhitespace(line.charAt(i))) {
        i--;
      }
      if (i < 0 || ".!?:\"(".indexOf(line.charAt(i)) >= 0) {
        continue; // a line, a sentence or a speaker's words start here: capitalised anyway
      }
      String w = m.group().toLowerCase(Locale.ROOT).replaceAll("'s$", "");
      if (!Terms.STOP.contains(w) && !CALENDAR.contains(w) && !subject.contains(w) && w.length() > 1) {
        out.add(w);
      }
    }
    return out;
  }

  /** Spoken by or about a named person (any candidate when the question names nobody). */
  private static boolean aboutSubject(Set<String> names, Candidate c) {
    return names.isEmpty() || FeatureReranker.speaker(names, c) >= 1;
  }

  /**
   * Whether {@code c} was said after {@code other}: a later conversation date, or in one session a
   * later last turn. Unknown dates never count as later.
   */
  static boolean saidLater(Candidate c, Candidate other) {
    if (c.mentionedAt() != null && other.mentionedAt() != null && !c.mentionedAt().equals(other.mentionedAt())) {
      return c.mentionedAt().isAfter(other.mentionedAt());
    }
    if (!c.session().isEmpty() && c.session().equals(other.session()) && !c.turns().isEmpty()
        && !other.turns().isEmpty()) {
      TurnRef mine = c.turns().get(c.turns().size() - 1);
      TurnRef theirs = other.turns().get(other.turns().size() - 1);
      return mine.index() > theirs.index();
    }
    return false;
  }
}
