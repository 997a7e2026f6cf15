// Fixture stub (never compiled): a header of core's store folder.
#pragma once
