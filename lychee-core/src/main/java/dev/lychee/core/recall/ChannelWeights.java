package dev.lychee.core.recall;

import static dev.lychee.core.config.ConfigChecks.unit;

/**
 * The field scores the built-in channels give their hits (docs/defaults.md §4.5): node weights,
 * temporal node scores, and the {@code base + scale·r} mappings of the record-vector, raw-turn and
 * lexical channels. Every value lies in [0, 1]. Immutable; {@link #defaults()} are the reference
 * values except the record-vector base, 0.40 instead of 0.30: a record is a compact, one-line
 * citation of its turns, and under a token budget records that rank beside the raw turns let
 * list and inference questions gather turns from many sessions (measured, docs/defaults.md §4.5).
 */
public final class ChannelWeights {
  private static final String OWNER = "ChannelWeights";

  private final double entity;
  private final double tag;
  private final double entityTag;
  private final double eventFrame;
  private final double temporalDay;
  private final double temporalMonth;
  private final double temporalOther;
  private final double recordBase;
  private final double recordScale;
  private final double rawBase;
  private final double rawScale;
  private final double lexicalTurnBase;
  private final double lexicalTurnScale;
  private final double lexicalRecordBase;
  private final double lexicalRecordScale;

  private ChannelWeights(Builder b) {
    entity = unit(OWNER, "entity", b.entity);
    tag = unit(OWNER, "tag", b.tag);
    entityTag = unit(OWNER, "entityTag", b.entityTag);
    eventFrame = unit(OWNER, "eventFrame", b.eventFrame);
    temporalDay = unit(OWNER, "temporalDay", b.temporalDay);
    temporalMonth = unit(OWNER, "temporalMonth", b.temporalMonth);
    temporalOther = unit(OWNER, "temporalOther", b.temporalOther);
    recordBase = unit(OWNER, "recordBase", b.recordBase);
    recordScale = unit(OWNER, "recordScale", b.recordScale);
    rawBase = unit(OWNER, "rawBase", b.rawBase);
    rawScale = unit(OWNER, "rawScale", b.rawScale);
    lexicalTurnBase = unit(OWNER, "lexicalTurnBase", b.lexicalTurnBase);
    lexicalTurnScale = unit(OWNER, "lexicalTurnScale", b.lexicalTurnScale);
    lexicalRecordBase = unit(OWNER, "lexicalRecordBase", b.lexicalRecordBase);
    lexicalRecordScale = unit(OWNER, "lexicalRecordScale", b.lexicalRecordScale);
  }

  /** The default weights (the reference ones but for the record-vector base). */
  public static ChannelWeights defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Weight of an entity-node hit. */
  public double entity() {
    return entity;
  }

  /** Weight of a tag-node hit. */
  public double tag() {
    return tag;
  }

  /** Weight of an entity-tag-node hit. */
  public double entityTag() {
    return entityTag;
  }

  /** Weight of an event-frame-node hit. */
  public double eventFrame() {
    return eventFrame;
  }

  /** Score of a record reached through a day node. */
  public double temporalDay() {
    return temporalDay;
  }

  /** Score of a record reached through a month node. */
  public double temporalMonth() {
    return temporalMonth;
  }

  /** Score of a record reached through any other temporal node. */
  public double temporalOther() {
    return temporalOther;
  }

  public double recordBase() {
    return recordBase;
  }

  public double recordScale() {
    return recordScale;
  }

  public double rawBase() {
    return rawBase;
  }

  public double rawScale() {
    return rawScale;
  }

  public double lexicalTurnBase() {
    return lexicalTurnBase;
  }

  public double lexicalTurnScale() {
    return lexicalTurnScale;
  }

  public double lexicalRecordBase() {
    return lexicalRecordBase;
  }

  public double lexicalRecordScale() {
    return lexicalRecordScale;
  }

  @Override
  public String toString() {
    return "ChannelWeights[entity=" + entity + ", tag=" + tag + ", entityTag=" + entityTag + ", eventFrame="
        + eventFrame + ", temporal=" + temporalDay + "/" + temporalMonth + "/" + temporalOther + ", record="
        + recordBase + "+" + recordScale + "r, raw=" + rawBase + "+" + rawScale + "r, lexicalTurn="
        + lexicalTurnBase + "+" + lexicalTurnScale + "n, lexicalRecord=" + lexicalRecordBase + "+"
        + lexicalRecordScale + "n]";
  }

  /** Builder; every value starts at its default. */
  public static final class Builder {
    private double entity = .34;
    private double tag = .32;
    private double entityTag = .38;
    private double eventFrame = .42;
    private double temporalDay = .42;
    private double temporalMonth = .28;
    private double temporalOther = .34;
    private double recordBase = .40;
    private double recordScale = .30;
    private double rawBase = .34;
    private double rawScale = .42;
    private double lexicalTurnBase = .20;
    private double lexicalTurnScale = .30;
    private double lexicalRecordBase = .18;
    private double lexicalRecordScale = .30;

    private Builder() {}

    public Builder entity(double v) {
      entity = v;
      return this;
    }

    public Builder tag(double v) {
      tag = v;
      return this;
    }

    public Builder entityTag(double v) {
      entityTag = v;
      return this;
    }

    public Builder eventFrame(double v) {
      eventFrame = v;
      return this;
    }

    public Builder temporalDay(double v) {
      temporalDay = v;
      return this;
    }

    public Builder temporalMonth(double v) {
      temporalMonth = v;
      return this;
    }

    public Builder temporalOther(double v) {
      temporalOther = v;
      return this;
    }

    /** Record-vector field {@code recordBase + recordScale·r}. */
    public Builder record(double base, double scale) {
      recordBase = base;
      recordScale = scale;
      return this;
    }

    /** Raw-turn field {@code rawBase + rawScale·r}, before the strategy's multiplier and bonus. */
    public Builder raw(double base, double scale) {
      rawBase = base;
      rawScale = scale;
      return this;
    }

    /** Lexical turn field {@code base + scale·n} on the normalised BM25 score n. */
    public Builder lexicalTurn(double base, double scale) {
      lexicalTurnBase = base;
      lexicalTurnScale = scale;
      return this;
    }

    /** Lexical record field {@code base + scale·n} on the normalised BM25 score n. */
    public Builder lexicalRecord(double base, double scale) {
      lexicalRecordBase = base;
      lexicalRecordScale = scale;
      return this;
    }

    public ChannelWeights build() {
      return new ChannelWeights(this);
    }
  }
}
