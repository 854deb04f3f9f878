/**
 * Query planning: the rule-based planner for offline use and the LLM planner (one call, JSON out,
 * cleaned and capped), both producing a typed {@link dev.lychee.api.RecallPlan} of recall routes.
 */
package dev.lychee.core.plan;
