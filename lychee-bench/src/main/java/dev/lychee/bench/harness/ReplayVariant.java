package dev.lychee.bench.harness;

import dev.lychee.core.read.RetrievalConfig;
import dev.lychee.core.recall.ChannelWeights;
import dev.lychee.core.rerank.RerankWeights;
import java.util.Locale;
import java.util.Objects;

/**
 * One setting of the later read stages that {@link StageReplay} re-runs captured recalls with,
 * parsed from a line {@code name key=value ...}. Keys (every one optional, the rest at its default):
 * {@code mp} multiPartRecordsAbove, {@code nest} nestFloor, {@code cost} costExponent (plans that are not
 * multi-part), {@code mpcost} multiPartCostExponent, {@code hedge} hedgeCostExponent, {@code hedgeafter}
 * hedgeAfter, {@code hedgeto} hedgeUpTo, {@code hedgeall} hedgeEveryType (1 or 0) (BudgetConfig);
 * {@code pf} poolFactor, {@code div} diversity, {@code sess} session, {@code cont} contained
 * (MmrConfig); {@code rfused}, {@code rsim}, {@code rlex}, {@code rspeaker}, {@code rtemporal}
 * (RerankWeights); {@code wturns} maxTurns, {@code wbefore} maxBefore, {@code wafter} extraAfter,
 * {@code wtrim} trimLineChars (WindowConfig); {@code rb} the record-vector base for every plan and
 * {@code rbmp} for multi-part plans only (their captured hits are moved by the difference to the
 * configured base, exact because the channel's scores stay below 1).
 *
 * @param name the row's name
 * @param config the stages' settings
 * @param recordBase the record-vector base of single-part plans
 * @param multiPartRecordBase the record-vector base of multi-part plans
 */
public record ReplayVariant(String name, RetrievalConfig config, double recordBase, double multiPartRecordBase) {
  public ReplayVariant {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(config, "config");
  }

  /** The defaults, named {@code name}. */
  public static ReplayVariant defaults(String name) {
    RetrievalConfig d = RetrievalConfig.defaults();
    return new ReplayVariant(name, d, d.weights().recordBase(), d.weights().recordBase());
  }

  /** Parses {@code name key=value ...}; an unknown key or a bad value is an IllegalArgumentException. */
  public static ReplayVariant parse(String line) {
    String[] parts = line.trim().split("\\s+");
    if (parts.length == 0 || parts[0].isEmpty() || parts[0].contains("=")) {
      throw new IllegalArgumentException("a variant line starts with its name: " + line);
    }
    RetrievalConfig d = RetrievalConfig.defaults();
    var budget = d.budget().toBuilder();
    var mmr = d.mmr().toBuilder();
    RerankWeights r = d.rerank();
    var rerank = RerankWeights.builder().fused(r.fused()).similarity(r.similarity()).lexical(r.lexical())
        .speaker(r.speaker()).temporal(r.temporal());
    var windows = d.windows().toBuilder();
    ChannelWeights w = d.weights();
    double rb = w.recordBase();
    Double rbmp = null;
    for (int i = 1; i < parts.length; i++) {
      String[] kv = parts[i].split("=", 2);
      if (kv.length != 2 || kv[1].isEmpty()) {
        throw new IllegalArgumentException("expected key=value: " + parts[i]);
      }
      String v = kv[1];
      switch (kv[0].toLowerCase(Locale.ROOT)) {
        case "mp" -> budget.multiPartRecordsAbove(Integer.parseInt(v));
        case "nest" -> budget.nestFloor(Integer.parseInt(v));
        case "cost" -> budget.costExponent(Double.parseDouble(v));
        case "mpcost" -> budget.multiPartCostExponent(Double.parseDouble(v));
        case "hedge" -> budget.hedgeCostExponent(Double.parseDouble(v));
        case "hedgeafter" -> budget.hedgeAfter(Integer.parseInt(v));
        case "hedgeto" -> budget.hedgeUpTo(Integer.parseInt(v));
        case "hedgeall" -> budget.hedgeEveryType(Integer.parseInt(v) != 0);
        case "pf" -> mmr.poolFactor(Integer.parseInt(v));
        case "div" -> mmr.diversity(Double.parseDouble(v));
        case "sess" -> mmr.session(Double.parseDouble(v));
        case "cont" -> mmr.contained(Double.parseDouble(v));
        case "rfused" -> rerank.fused(Double.parseDouble(v));
        case "rsim" -> rerank.similarity(Double.parseDouble(v));
        case "rlex" -> rerank.lexical(Double.parseDouble(v));
        case "rspeaker" -> rerank.speaker(Double.parseDouble(v));
        case "rtemporal" -> rerank.temporal(Double.parseDouble(v));
        case "wturns" -> windows.maxTurns(Integer.parseInt(v));
        case "wbefore" -> windows.maxBefore(Integer.parseInt(v));
        case "wafter" -> windows.extraAfter(Integer.parseInt(v));
        case "wtrim" -> windows.trimLineChars(Integer.parseInt(v));
        case "rb" -> rb = Double.parseDouble(v);
        case "rbmp" -> rbmp = Double.parseDouble(v);
        default -> throw new IllegalArgumentException("unknown key " + kv[0] + " in: " + line);
      }
    }
    RetrievalConfig config = d.toBuilder().budget(budget.build()).mmr(mmr.build()).rerank(rerank.build())
        .windows(windows.build()).build();
    return new ReplayVariant(parts[0], config, rb, rbmp == null ? rb : rbmp);
  }
}
