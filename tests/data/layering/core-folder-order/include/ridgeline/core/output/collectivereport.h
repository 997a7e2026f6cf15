// Fixture stub (never compiled): a header of core's output folder.
#pragma once
