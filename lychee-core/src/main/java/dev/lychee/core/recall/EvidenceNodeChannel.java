package dev.lychee.core.recall;

import dev.lychee.api.Candidate;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.NodeKind;
import dev.lychee.api.Provenance;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.ScoredId;
import dev.lychee.api.spi.LinkedRecords;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.RouteQuery;
import dev.lychee.api.spi.VectorIndex;
import dev.lychee.core.score.CandidateMerger;
import dev.lychee.core.score.Scores;
import dev.lychee.core.strategy.Strategies;
import dev.lychee.core.strategy.StrategyProfile;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Evidence-node recall (§4.5, 2.): every query variant searches the entity, tag, entity-tag and
 * event-frame node indexes (temporal nodes are never searched by vector); a node hit scores
 * {@code r·w(kind)} and passes that score to every record it links to. Records reached this way
 * keep similarity 0: they were never compared with the query themselves.
 */
public final class EvidenceNodeChannel implements RecallChannel {
  public static final String NAME = "evidence_node";

  private static final List<NodeKind> SEARCHED =
      List.of(NodeKind.ENTITY, NodeKind.TAG, NodeKind.ENTITY_TAG, NodeKind.EVENT_FRAME);
  /** The indexes of {@link #SEARCHED}, in the same order. */
  private static final List<String> INDEXES = SEARCHED.stream().map(VectorIndex::nodes).toList();
  /** Every candidate's channels: one list for all of them. */
  private static final List<String> CHANNELS = List.of(NAME);
  /** A kind's nodes best first, ties by id. */
  private static final Comparator<Map.Entry<String, NodeHit>> BEST_FIRST =
      Map.Entry.<String, NodeHit>comparingByValue(Comparator.comparingDouble(NodeHit::score)).reversed()
          .thenComparing(Map.Entry::getKey);

  private final RecordStore store;
  private final VectorIndex vectors;
  private final ChannelBudgets budgets;
  private final ChannelWeights weights;
  private final Strategies strategies;

  @Inject
  public EvidenceNodeChannel(RecordStore store, VectorIndex vectors, ChannelBudgets budgets, ChannelWeights weights,
      Strategies strategies) {
    this.store = store;
    this.vectors = vectors;
    this.budgets = budgets;
    this.weights = weights;
    this.strategies = strategies;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The weight of a node kind. */
  double weight(NodeKind kind) {
    ChannelWeights w = weights;
    return switch (kind) {
      case ENTITY -> w.entity();
      case TAG -> w.tag();
      case ENTITY_TAG -> w.entityTag();
      case EVENT_FRAME -> w.eventFrame();
      case TEMPORAL -> w.temporalOther();
    };
  }

  @Override
  public List<Candidate> recall(RecallRoute route, RecallContext context) {
    String ns = context.namespace();
    StrategyProfile p = strategies.of(context.plan().type());
    int limit = budgets.nodes(context.k(), p);
    int perNodeRecords = budgets.records(context.k(), p);
    RouteQuery query = context.query(route);
    List<String> variants = query.embeddedVariants(); // the order of the vector hits below
    // one immutable list per variant, shared by every node it alone reached (with the default one
    // embedded variant, every node): no list per node or linked record, and Provenance keeps an
    // immutable list as it is (round twenty-three, docs/measurements.md §6)
    List<List<String>> alone = new ArrayList<>(variants.size());
    variants.forEach(v -> alone.add(List.of(v)));

    // node id -> (score, queries); kept per kind to honour the per-kind limit
    Map<String, NodeHit> nodeHits = new LinkedHashMap<>();
    // all four kinds in one call: a database-backed index then learns whether its copies are
    // current in one round trip instead of one per kind (docs/defaults.md §3.3); no size check
    // first either, an empty index answers with no hits anyway (VectorIndex contract)
    Map<String, List<List<ScoredId>>> byKind = context.searchKinds(vectors, INDEXES, query, limit);
    // one map for the four kinds, emptied between them
    Map<String, NodeHit> ofKind = new HashMap<>();
    List<Map.Entry<String, NodeHit>> ranked = new ArrayList<>();
    for (NodeKind kind : SEARCHED) {
      ofKind.clear();
      List<List<ScoredId>> hits = byKind.get(VectorIndex.nodes(kind));
      double w = weight(kind);
      for (int i = 0; i < variants.size(); i++) {
        for (ScoredId hit : hits.get(i)) {
          double s = Scores.retrieval(hit.score()) * w;
          NodeHit h = ofKind.get(hit.id());
          if (h == null) {
            ofKind.put(hit.id(), new NodeHit(s, alone.get(i)));
          } else {
            h.add(s, variants.get(i));
          }
        }
      }
      ranked.clear();
      ranked.addAll(ofKind.entrySet());
      ranked.sort(BEST_FIRST);
      for (int i = 0; i < Math.min(limit, ranked.size()); i++) {
        nodeHits.put(ranked.get(i).getKey(), ranked.get(i).getValue());
      }
    }
    if (nodeHits.isEmpty()) {
      return List.of();
    }
    // record id -> best (score, node, queries)
    Map<String, LinkedRecord> linked = new HashMap<>();
    // the nodes' first record ids and those records in one store call (one round trip on a
    // database, docs/defaults.md §3.3); only the nodes' record ids are read of them: the rest of a
    // busy node (its sessions and turn ranges, which grow with the namespace) would cost more to
    // decode than the whole channel
    LinkedRecords read = store.linkedRecords(ns, nodeHits.keySet(), perNodeRecords);
    for (Map.Entry<String, List<String>> node : read.recordIds().entrySet()) {
      NodeHit h = nodeHits.get(node.getKey());
      for (String id : node.getValue()) {
        linked.computeIfAbsent(id, x -> new LinkedRecord()).add(h.score, node.getKey(), h.queries);
      }
    }
    CandidateMerger out = new CandidateMerger();
    List<String> routes = List.of(route.id());
    for (MemoryRecord rec : read.records()) {
      LinkedRecord l = linked.get(rec.id());
      Provenance prov = new Provenance(CHANNELS, l.queries, l.nodes(), routes);
      out.add(Candidate.ofRecord(rec, Scores.clamp(l.score), 0, prov));
    }
    return out.sorted();
  }

  /** {@code list} (immutable, distinct) and then {@code more}, as a new immutable list. */
  private static List<String> appended(List<String> list, String more) {
    String[] out = list.toArray(new String[list.size() + 1]);
    out[list.size()] = more;
    return List.of(out);
  }

  /**
   * One node's best score over the variants, with the variants that reached it in first-seen order.
   * Filled in place: every variant's hits of a kind land here, one object per node. The variants are
   * an immutable list, replaced when a further variant reaches the node: at first the shared list of
   * the one variant that found it.
   */
  private static final class NodeHit {
    private double score;
    private List<String> queries;

    NodeHit(double score, List<String> query) {
      this.score = score;
      this.queries = query;
    }

    double score() {
      return score;
    }

    void add(double s, String query) {
      score = Math.max(score, s);
      if (!queries.contains(query)) {
        queries = appended(queries, query);
      }
    }
  }

  /**
   * One linked record's best node score, with the nodes and queries that reached it in first-seen
   * order. Filled in place: a busy node links many records, and a record many nodes. Plain lists,
   * not linked sets: at scale 20 the two sets of every linked record were a third of the channel's
   * allocation (docs/measurements.md §6, round twenty-one). The queries are a few variants and are
   * kept distinct here, as an immutable list that starts as the first node's own (no copy, and
   * none in {@link Provenance}) and is replaced only when a later node adds a variant; the nodes
   * are one node's list until a second one links the record (round twenty-three). A node is added
   * once per node that links the record (the nodes are the keys of one map) and any repeat left is
   * dropped by {@link Provenance}, which keeps first occurrences as the sets did.
   */
  private static final class LinkedRecord {
    private double score = Double.NEGATIVE_INFINITY;
    private String firstNode;
    private List<String> moreNodes;
    private List<String> queries;

    void add(double nodeScore, String node, List<String> nodeQueries) {
      score = Math.max(score, nodeScore);
      if (firstNode == null) {
        firstNode = node;
        queries = nodeQueries;
        return;
      }
      if (moreNodes == null) {
        moreNodes = new ArrayList<>(4);
        moreNodes.add(firstNode);
      }
      moreNodes.add(node);
      if (nodeQueries != queries) {
        for (String q : nodeQueries) {
          if (!queries.contains(q)) {
            queries = appended(queries, q);
          }
        }
      }
    }

    List<String> nodes() {
      return moreNodes == null ? List.of(firstNode) : moreNodes;
    }
  }
}
