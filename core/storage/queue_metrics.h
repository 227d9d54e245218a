#pragma once

#include <vector>

#include "common/metrics.h"
#include "storage/database.h"

namespace docintel::storage {

/// What waits in Postgres, read when /metrics is scraped: jobs queued and running per kind
/// (with the wait of the oldest runnable one) and open webhook deliveries per status. Both
/// queries use the tables' partial indexes on open rows, so they cost little however much
/// history the tables hold. Empty when the database fails (the scrape still answers).
std::vector<common::Metrics::Reading> readQueueMetrics(Database& db);

}  // namespace docintel::storage
