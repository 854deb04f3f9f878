package dev.lychee.store.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.Update;

/**
 * Statements sent to the server in one round trip, each with its own parameters and result: the
 * driver sends a statement text of several statements as one message train with one sync, and the
 * server answers with each one's rows or update count in turn.
 *
 * <p>Why (round twenty-one, docs/measurements.md §6): a segment's {@code commitClaimed} was about
 * eight round trips on the encoder's thread (the claim's end, the locking reads of records and of
 * nodes, the inserts and rewrites of each, {@code COMMIT}), each a wake-up of the server and of the
 * encoder on a loaded machine. The statements of one pipeline run in order, in the caller's
 * transaction; one that fails fails the round trip, and the transaction with it, as it would alone.
 *
 * <p>Each statement's named parameters are renamed apart ({@link Params#rename}), so two statements
 * may use the same names.
 */
final class Pipeline {
  /** One statement's result, readable once the pipeline has run. */
  static final class Step<R> {
    private final RowMapper<?> mapper;
    private R value;
    private boolean done;

    private Step(RowMapper<?> mapper) {
      this.mapper = mapper;
    }

    R get() {
      if (!done) {
        throw new IllegalStateException("the pipeline has not run");
      }
      return value;
    }
  }

  private final StringBuilder sql = new StringBuilder();
  private final List<Consumer<Params>> binds = new ArrayList<>();
  private final List<Step<?>> steps = new ArrayList<>();

  /** Adds a statement that returns rows, each mapped by {@code mapper}. */
  <R> Step<List<R>> query(String statement, Consumer<Params> bind, RowMapper<R> mapper) {
    return add(statement, bind, new Step<>(mapper));
  }

  /** Adds a statement that returns its update count. */
  Step<Integer> update(String statement, Consumer<Params> bind) {
    return add(statement, bind, new Step<>(null));
  }

  boolean isEmpty() {
    return steps.isEmpty();
  }

  private <R> Step<R> add(String statement, Consumer<Params> bind, Step<R> step) {
    String suffix = "_s" + steps.size();
    if (!sql.isEmpty()) {
      sql.append(";\n");
    }
    sql.append(Params.rename(statement, suffix));
    binds.add(p -> bind.accept(p.suffixed(suffix)));
    steps.add(step);
    return step;
  }

  /** Sends every statement added, in one round trip (none when there is none). */
  void run(Handle h) {
    if (steps.isEmpty()) {
      return;
    }
    Update u = h.createUpdate(sql.toString());
    Params p = Params.of(u);
    binds.forEach(b -> b.accept(p));
    u.execute((statement, ctx) -> {
      PreparedStatement ps = statement.get();
      for (int i = 0; i < steps.size(); i++) {
        if (i > 0) {
          ps.getMoreResults();
        }
        ResultSet rs = ps.getResultSet();
        read(steps.get(i), rs, rs == null ? ps.getUpdateCount() : -1, ctx);
      }
      return null;
    });
  }

  @SuppressWarnings("unchecked")
  private static <R> void read(Step<R> step, ResultSet rs, int count, StatementContext ctx) throws SQLException {
    if (step.mapper == null) {
      step.value = (R) Integer.valueOf(count);
    } else {
      List<Object> rows = new ArrayList<>();
      if (rs != null) {
        while (rs.next()) {
          rows.add(step.mapper.map(rs, ctx));
        }
      }
      step.value = (R) rows;
    }
    step.done = true;
  }
}
