package dev.lychee.core.read;

import static dev.lychee.core.config.ConfigChecks.unit;

/**
 * The additive boosts {@link RouteScorer} applies per route (docs/defaults.md §4.6): record bonuses
 * by question type and the two temporal boosts. Every value lies in [0, 1]. Immutable.
 */
public final class ScoreBoosts {
  private static final String OWNER = "ScoreBoosts";

  private final double assistantRecord;
  private final double adviceRecord;
  private final double temporalRecord;
  private final double eventRecord;
  private final double temporalSpan;
  private final double sourceTime;

  private ScoreBoosts(Builder b) {
    assistantRecord = unit(OWNER, "assistantRecord", b.assistantRecord);
    adviceRecord = unit(OWNER, "adviceRecord", b.adviceRecord);
    temporalRecord = unit(OWNER, "temporalRecord", b.temporalRecord);
    eventRecord = unit(OWNER, "eventRecord", b.eventRecord);
    temporalSpan = unit(OWNER, "temporalSpan", b.temporalSpan);
    sourceTime = unit(OWNER, "sourceTime", b.sourceTime);
  }

  public static ScoreBoosts defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Added to records from assistant turns, for questions about what the assistant said. */
  public double assistantRecord() {
    return assistantRecord;
  }

  /** Added to preference, constraint, event and failure records, for advice questions. */
  public double adviceRecord() {
    return adviceRecord;
  }

  /** Added to records with a temporal scope, for temporal questions. */
  public double temporalRecord() {
    return temporalRecord;
  }

  /** Added to event records, for aggregate and comparison questions. */
  public double eventRecord() {
    return eventRecord;
  }

  /** Added when a candidate's event span overlaps the date filter. */
  public double temporalSpan() {
    return temporalSpan;
  }

  /** Added when only the conversation date falls in the date filter. */
  public double sourceTime() {
    return sourceTime;
  }

  @Override
  public String toString() {
    return "ScoreBoosts[assistantRecord=" + assistantRecord + ", adviceRecord=" + adviceRecord
        + ", temporalRecord=" + temporalRecord + ", eventRecord=" + eventRecord + ", temporalSpan=" + temporalSpan
        + ", sourceTime=" + sourceTime + "]";
  }

  /** Builder; every value starts at its default. */
  public static final class Builder {
    private double assistantRecord = .08;
    private double adviceRecord = .05;
    private double temporalRecord = .04;
    private double eventRecord = .03;
    private double temporalSpan = .08;
    private double sourceTime = .04;

    private Builder() {}

    public Builder assistantRecord(double v) {
      assistantRecord = v;
      return this;
    }

    public Builder adviceRecord(double v) {
      adviceRecord = v;
      return this;
    }

    public Builder temporalRecord(double v) {
      temporalRecord = v;
      return this;
    }

    public Builder eventRecord(double v) {
      eventRecord = v;
      return this;
    }

    public Builder temporalSpan(double v) {
      temporalSpan = v;
      return this;
    }

    public Builder sourceTime(double v) {
      sourceTime = v;
      return this;
    }

    public ScoreBoosts build() {
      return new ScoreBoosts(this);
    }
  }
}
