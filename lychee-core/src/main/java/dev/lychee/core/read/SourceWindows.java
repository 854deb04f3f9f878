package dev.lychee.core.read;

import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.Provenance;
import dev.lychee.api.RawTurn;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.core.strategy.StrategyProfile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Source windows (§4.7): the neighbouring turns around the strongest hits of a route, so an answer
 * given in the reply after the matched turn is not missed. A window shows its turns verbatim, one
 * {@code "<speaker>: <text>"} line each, and cites exactly those turns. Windows are kept short
 * (at most {@link WindowConfig#maxTurns()} turns, at most {@code sc} characters, long
 * lines trimmed to their query-bearing sentences) because their text counts against the answerer's
 * token budget. They are added beside their anchors.
 */
public final class SourceWindows {
  /** The channel name windows carry in their provenance, and the tag they get. */
  public static final String NAME = "source_window";

  private final RecordStore store;
  private final RetrievalConfig config;

  public SourceWindows(RecordStore store, RetrievalConfig config) {
    this.store = store;
    this.config = config;
  }

  /**
   * Windows for the strongest of {@code items} (sorted best first).
   *
   * @param k the effective depth; at most min(k, sa) anchors get a window
   * @param queryTerms content terms of the question and the route's queries: long lines keep the
   *     sentences holding one of them when {@link WindowConfig#trimLineChars()} is set
   */
  public List<Candidate> around(List<Candidate> items, String namespace, int k, StrategyProfile p,
      Set<String> queryTerms) {
    WindowConfig wc = config.windows();
    if (!wc.enabled() || p.sourceWindow() <= 0) {
      return List.of();
    }
    int anchors = Math.min(Math.min(k, p.sourceAnchors()), wc.maxAnchors());
    List<Candidate> ordered = new ArrayList<>(items);
    ordered.sort(Comparator.comparingDouble(SourceWindows::anchorScore).reversed().thenComparing(Candidate::id));
    List<Span> spans = new ArrayList<>();
    for (Candidate a : ordered) {
      if (spans.size() >= anchors) {
        break;
      }
      if (a.kind() == CandidateKind.WINDOW || a.turns().isEmpty() || a.session().isEmpty()
          || (wc.rawAnchorsOnly() && a.kind() != CandidateKind.RAW_TURN)) {
        continue;
      }
      List<TurnRef> own = a.turns().stream().filter(t -> t.session().equals(a.session())).toList();
      if (own.isEmpty()) {
        continue;
      }
      int lo = Math.max(0, own.get(0).index() - Math.min(p.sourceWindow(), wc.maxBefore()));
      int hi = own.get(own.size() - 1).index() + p.sourceWindow() + wc.extraAfter();
      if (hi - lo + 1 > wc.maxTurns()) {
        // centre a short window on the anchor rather than showing a long stretch
        int mid = (own.get(0).index() + own.get(own.size() - 1).index()) / 2;
        lo = Math.max(lo, mid - wc.maxTurns() / 2);
        hi = lo + wc.maxTurns() - 1;
      }
      spans.add(new Span(a.session(), lo, hi, a));
    }
    List<Span> merged = merge(spans, p, wc.maxTurns());
    Map<TurnRef, RawTurn> stored = read(namespace, merged);
    List<Candidate> out = new ArrayList<>();
    for (Span s : merged) {
      List<RawTurn> turns = new ArrayList<>();
      for (int i = s.lo; i <= s.hi; i++) {
        RawTurn t = stored.get(TurnRef.of(s.session, i));
        if (t != null && !t.text().isBlank()) {
          turns.add(t);
        }
      }
      Candidate c = build(namespace, s, p, queryTerms, turns);
      if (c != null) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * The stored turns of every span, in one batched read: durable stores answer it from the turns
   * the channels just read (cached) or with one statement per session, instead of one per window.
   */
  private Map<TurnRef, RawTurn> read(String namespace, List<Span> spans) {
    Set<TurnRef> refs = new LinkedHashSet<>();
    for (Span s : spans) {
      for (int i = Math.max(0, s.lo); i <= s.hi; i++) {
        refs.add(TurnRef.of(s.session, i));
      }
    }
    Map<TurnRef, RawTurn> out = new HashMap<>();
    if (!refs.isEmpty()) {
      for (RawTurn t : store.turns(namespace, refs)) {
        out.put(t.ref(), t);
      }
    }
    return out;
  }

  /** The score an item anchors a window with: its best stage score or similarity. */
  static double anchorScore(Candidate c) {
    return Math.max(c.score(), c.similarity());
  }

  private List<Span> merge(List<Span> spans, StrategyProfile p, int maxTurns) {
    List<Span> sorted = new ArrayList<>(spans);
    sorted.sort(Comparator.comparing(Span::session).thenComparingInt(Span::lo));
    List<Span> out = new ArrayList<>();
    for (Span s : sorted) {
      Span last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && last.session.equals(s.session) && s.lo <= last.hi + p.sourceMergeGap() + 1
          && Math.max(last.hi, s.hi) - last.lo + 1 <= maxTurns) {
        Candidate better = anchorScore(s.anchor) > anchorScore(last.anchor) ? s.anchor : last.anchor;
        out.set(out.size() - 1, new Span(s.session, last.lo, Math.max(last.hi, s.hi), better));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  private Candidate build(String namespace, Span s, StrategyProfile p, Set<String> queryTerms, List<RawTurn> turns) {
    if (turns.size() < 2) {
      return null; // a window of one turn adds nothing to the turn itself
    }
    StringBuilder text = new StringBuilder();
    List<TurnRef> shown = new ArrayList<>();
    for (RawTurn t : turns) {
      String line = LineTrimmer.trim(t.content().strip(), queryTerms, config.windows().trimLineChars());
      if (text.length() + line.length() + 1 > p.sourceMaxChars() && !shown.isEmpty()) {
        break;
      }
      if (text.length() > 0) {
        text.append('\n');
      }
      text.append(line);
      shown.add(t.ref());
    }
    int a = shown.get(0).index();
    int b = shown.get(shown.size() - 1).index();
    Candidate anchor = s.anchor;
    Set<String> tags = new LinkedHashSet<>(anchor.tags());
    tags.add(NAME);
    Provenance prov = anchor.provenance().merge(new Provenance(List.of(NAME), List.of(), List.of(), List.of()));
    return new Candidate(NAME + ":" + s.session + ":" + a + "-" + b, CandidateKind.WINDOW, namespace,
        text.toString(), s.session, shown, turns.get(0).time() != null ? turns.get(0).time() : anchor.mentionedAt(),
        anchor.temporal(), null, anchor.sourceRole(), anchor.entities(), List.copyOf(tags),
        anchor.score(), anchor.similarity(), prov);
  }

  private record Span(String session, int lo, int hi, Candidate anchor) {}
}
