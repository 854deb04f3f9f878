/**
 * Per-question-type retrieval strategies ({@link dev.lychee.core.strategy.StrategyProfile}): read
 * by the channels, the route scorer, source windows and the episode limiter alike.
 */
package dev.lychee.core.strategy;
