#include "session/catalog.h"

#include <gtest/gtest.h>

#include "model/json_fields.h"

namespace clamsim::session {
namespace {

const std::string root = CLAMSIM_SOURCE_DIR;

TEST(Catalog, OffersTheShippedModelsAndScenarios) {
  const Catalog c(root + "/models", root + "/config/scenarios", "t250");
  MachineSetup m;
  std::string why;
  ASSERT_TRUE(c.resolve("", "", &m, &why)) << why;
  EXPECT_EQ(m.name, "t250");
  ASSERT_TRUE(c.resolve("t250", "exp_5_1_1_clam_steps", &m, &why)) << why;
  EXPECT_NEAR(m.initial.clam_theta2_rad, 25.0 * M_PI / 180.0, 1e-12);
  EXPECT_FALSE(c.resolve("nope", "", &m, &why));
  EXPECT_EQ(why, "unknown model \"nope\"");
  EXPECT_FALSE(c.resolve("", "nope", &m, &why));
  EXPECT_EQ(why, "unknown scenario \"nope\"");
}

TEST(Catalog, MissingDefaultModelIsAClearError) {
  try {
    Catalog c(root + "/models", root + "/config/scenarios", "missing");
    FAIL() << "expected an error";
  } catch (const model::ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("default model \"missing\" not found"), std::string::npos);
  }
}

}  // namespace
}  // namespace clamsim::session
