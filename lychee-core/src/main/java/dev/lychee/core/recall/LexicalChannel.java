package dev.lychee.core.recall;

import dev.lychee.api.Candidate;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.Provenance;
import dev.lychee.api.RawTurn;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.ScoredId;
import dev.lychee.api.TurnRef;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.TextField;
import java.util.EnumSet;
import java.util.Set;
import dev.lychee.core.score.CandidateMerger;
import dev.lychee.core.score.Scores;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Lexical recall over raw turns and records with the store's BM25/FTS search. Lexical scores have
 * no fixed scale, so each query's hits are divided by that query's best hit; a normalised score
 * {@code n} becomes the field {@code base + scale·n} (separate constants for turns and records).
 * It finds exact names and rare words that embeddings blur.
 */
public final class LexicalChannel implements RecallChannel {
  public static final String NAME = "lexical";

  private final RecordStore store;
  private final ChannelBudgets budgets;
  private final ChannelWeights weights;
  private final Set<TextField> fields;

  /** A lexical channel over turns and records. */
  @Inject
  public LexicalChannel(RecordStore store, ChannelBudgets budgets, ChannelWeights weights) {
    this(store, budgets, weights, EnumSet.allOf(TextField.class));
  }

  /**
   * A lexical channel over the given fields only (for example records alone, when raw turns are
   * left out of recall).
   */
  public LexicalChannel(RecordStore store, ChannelBudgets budgets, ChannelWeights weights, Set<TextField> fields) {
    this.store = store;
    this.budgets = budgets;
    this.weights = weights;
    if (fields.isEmpty()) {
      throw new IllegalArgumentException("LexicalChannel needs at least one text field");
    }
    this.fields = Set.copyOf(fields);
  }

  @Override
  public String name() {
    return NAME;
  }

  /** No: {@value #NAME} reads no vector (it searches the store's text index with the variants' texts), so it can run while the query batch is embedded. */
  @Override
  public boolean needsVectors() {
    return false;
  }

  @Override
  public List<Candidate> recall(RecallRoute route, RecallContext context) {
    String ns = context.namespace();
    int limit = budgets.lexicalLimit();
    List<String> variants = context.query(route).variants();
    ChannelWeights w = weights;
    CandidateMerger out = new CandidateMerger();
    if (fields.contains(TextField.TURNS)) {
      Map<String, VariantHit> turnHits = search(ns, TextField.TURNS, variants, limit);
      List<TurnRef> refs = turnHits.keySet().stream().map(TurnIds::parse).flatMap(Optional::stream).toList();
      for (RawTurn t : store.turns(ns, refs)) {
        VariantHit hit = turnHits.get(t.id());
        if (hit != null && !t.text().isBlank()) {
          out.add(Candidate.ofTurn(t, Scores.clamp(w.lexicalTurnBase() + w.lexicalTurnScale() * hit.r()), 0,
              prov(route, hit)));
        }
      }
    }
    Map<String, VariantHit> recordHits =
        fields.contains(TextField.RECORDS) ? search(ns, TextField.RECORDS, variants, limit) : Map.of();
    if (!recordHits.isEmpty()) {
      for (MemoryRecord rec : store.records(ns, recordHits.keySet())) {
        VariantHit h = recordHits.get(rec.id());
        out.add(Candidate.ofRecord(rec, Scores.clamp(w.lexicalRecordBase() + w.lexicalRecordScale() * h.r()), 0,
            prov(route, h)));
      }
    }
    return out.sorted();
  }

  private Map<String, VariantHit> search(String ns, TextField field, List<String> variants, int limit) {
    Map<String, VariantHit> best = new LinkedHashMap<>();
    // one call for every variant: a database-backed store answers them in one round trip
    List<List<ScoredId>> all = store.searchTexts(ns, field, variants, limit);
    for (int i = 0; i < variants.size(); i++) {
      String q = variants.get(i);
      List<ScoredId> hits = all.get(i);
      if (hits.isEmpty()) {
        continue;
      }
      double top = hits.stream().mapToDouble(ScoredId::score).max().orElse(0);
      Map<String, Double> norm = new HashMap<>();
      for (ScoredId h : hits) {
        norm.put(h.id(), top > 0 ? Scores.clamp(h.score() / top) : 0);
      }
      norm.forEach((id, n) -> best.merge(id, new VariantHit(n, List.of(q)), VariantHit::merge));
    }
    return best;
  }

  private Provenance prov(RecallRoute route, VariantHit h) {
    return new Provenance(List.of(NAME), h.queries(), List.of(), List.of(route.id()));
  }
}
