// Fixture stub (never compiled): a header of core's analysis folder.
#pragma once
