package dev.lychee.bench.systems;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.lychee.api.spi.Fuser;
import dev.lychee.api.spi.QueryPlanner;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecordStore;
import dev.lychee.api.spi.Reranker;
import dev.lychee.api.spi.Selector;
import dev.lychee.api.spi.TextField;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.fuse.MaxScoreFuser;
import dev.lychee.core.plan.SingleRoutePlanner;
import dev.lychee.core.read.RetrievalConfig;
import dev.lychee.core.recall.ChannelBudgets;
import dev.lychee.core.recall.ChannelWeights;
import dev.lychee.core.recall.EvidenceNodeChannel;
import dev.lychee.core.recall.LexicalChannel;
import dev.lychee.core.recall.RecordVectorChannel;
import dev.lychee.core.recall.TemporalRangeChannel;
import dev.lychee.core.select.TopKSelector;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The evaluation's ablations of the Lychee read side. Each one is a Guice module that overrides
 * bindings of {@code LycheeModule} (the channels, the planner, or the fuser, reranker and
 * selector), plus, for the two that leave raw turns out, source windows switched off. Production
 * code knows nothing of them.
 */
public enum Ablation {
  /** The full pipeline. */
  NONE("lychee", false) {
    @Override
    public List<Module> overrides() {
      return List.of();
    }
  },
  /** Only the record-vector channel; no source windows. */
  RECORD_ONLY("lychee-record-only", true) {
    @Override
    public List<Module> overrides() {
      return List.of(new AbstractModule() {
        @Provides
        @Singleton
        Set<RecallChannel> channels(RecordVectorChannel records) {
          return Set.of(records);
        }
      });
    }
  },
  /** One route holding the question: no planner call. */
  NO_PLANNER("lychee-no-planner", false) {
    @Override
    public List<Module> overrides() {
      return List.of(new AbstractModule() {
        @Override
        protected void configure() {
          bind(QueryPlanner.class).to(SingleRoutePlanner.class);
        }
      });
    }
  },
  /** Routes merged by best score; no reranker, no MMR, no episode limiter. */
  NO_FUSION("lychee-no-fusion", false) {
    @Override
    public List<Module> overrides() {
      return List.of(new AbstractModule() {
        @Override
        protected void configure() {
          bind(Fuser.class).to(MaxScoreFuser.class);
          bind(Reranker.class).toInstance(Reranker.NONE);
          bind(Selector.class).to(TopKSelector.class);
        }
      });
    }
  },
  /** No raw-turn channel, lexical search over records only, no source windows. */
  NO_RAW("lychee-no-raw", true) {
    @Override
    public List<Module> overrides() {
      return List.of(new AbstractModule() {
        @Provides
        @Singleton
        Set<RecallChannel> channels(TemporalRangeChannel temporal, EvidenceNodeChannel nodes,
            RecordVectorChannel records, RecordStore store, ChannelBudgets budgets, ChannelWeights weights) {
          Set<RecallChannel> out = new LinkedHashSet<>();
          out.add(temporal);
          out.add(nodes);
          out.add(records);
          out.add(new LexicalChannel(store, budgets, weights, EnumSet.of(TextField.RECORDS)));
          return out;
        }
      });
    }
  };

  private final String systemName;
  private final boolean noWindows;

  Ablation(String systemName, boolean noWindows) {
    this.systemName = systemName;
    this.noWindows = noWindows;
  }

  /** The name {@code --systems} knows this ablation by. */
  public String systemName() {
    return systemName;
  }

  /** The modules that override Lychee's bindings for this ablation. */
  public abstract List<Module> overrides();

  /** The base configuration as this ablation runs it (source windows off when raw turns are left out). */
  public LycheeConfig configure(LycheeConfig base) {
    if (!noWindows) {
      return base;
    }
    RetrievalConfig r = base.retrieval();
    return base.toBuilder()
        .retrieval(r.toBuilder().windows(r.windows().toBuilder().enabled(false).build()).build())
        .build();
  }

  /** The ablation of a system name. */
  public static Ablation ofSystem(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    for (Ablation a : values()) {
      if (a.systemName.equals(n)) {
        return a;
      }
    }
    throw new IllegalArgumentException("not a lychee system: " + name);
  }
}
