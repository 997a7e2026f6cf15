// Fixture stub (never compiled): a header of core's model folder.
#pragma once
