package dev.lychee.server.api;

import java.time.LocalDateTime;
import java.util.List;

/**
 * The answer of {@code POST .../recall}.
 *
 * @param evidenceTokens o200k tokens of all returned evidence texts
 */
public record RecallView(
    String namespace, String question, int k, Integer tokenBudget, LocalDateTime askedAt, PlanView plan,
    List<EvidenceView> evidence, int evidenceTokens, double elapsedMs) {}
